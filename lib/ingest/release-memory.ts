import "server-only";
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null = null;

/**
 * A full garbage collection now. A first scan leaves the dead listing of the whole tree (and,
 * when it was read on this thread, its parse results; a main-thread rescan, its listings) that V8
 * would collect only when the heap next fills; the server should not sit at twice its working
 * size until then. Node exposes gc() only behind a flag, set here at runtime.
 */
export function releaseScanMemory(): void {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as () => void;
  }
  collect();
}
