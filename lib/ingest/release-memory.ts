import "server-only";
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null = null;

/**
 * A full garbage collection now. A first scan of 100,000 files leaves a few hundred MB of dead
 * parse results (a rescan, tens of MB of listings) that V8 would collect only when the heap next
 * fills; the server should not sit at twice its working size until then. Node exposes gc() only
 * behind a flag, set here at runtime.
 */
export function releaseScanMemory(): void {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as () => void;
  }
  collect();
}
