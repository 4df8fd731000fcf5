// Which files a process read, byte for byte, over a window: strace on its read calls, summed by the
// path of each descriptor. `rchar` (/proc/<pid>/io) counts every read alike, and the server reads
// its SQLite journal far more than any workspace file, so only this says whether a channel's old
// bytes were read again. Tracing slows the server, so it gets a window of its own.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { processTree } from "./measure";

const READ_CALL = /^(\d+)\s+(?:pread64|read|readv|preadv)\((\d+)<([^>]*)>/;
const UNFINISHED = /^(\d+)\s+(?:pread64|read|readv|preadv)\(\d+<([^>]*)>.*<unfinished \.\.\.>$/;
const RESUMED = /^(\d+)\s+<\.\.\. (?:pread64|read|readv|preadv) resumed>/;
const RESULT = /=\s+(\d+)(?:\s+<[^>]*>)?$/;

/** Bytes read per path from `strace -f -y` output, line by line (a call split by another thread's is joined up). */
export class ReadTally {
  readonly byPath = new Map<string, number>();
  private readonly pending = new Map<string, string>();

  add(line: string): void {
    const unfinished = UNFINISHED.exec(line);
    if (unfinished) {
      this.pending.set(unfinished[1] as string, unfinished[2] as string);
      return;
    }
    let pathOf: string | undefined;
    const resumed = RESUMED.exec(line);
    if (resumed) {
      pathOf = this.pending.get(resumed[1] as string);
      this.pending.delete(resumed[1] as string);
    } else pathOf = READ_CALL.exec(line)?.[3];
    const bytes = RESULT.exec(line)?.[1];
    if (pathOf !== undefined && bytes !== undefined) this.byPath.set(pathOf, (this.byPath.get(pathOf) ?? 0) + Number(bytes));
  }
}

export function bytesByPath(trace: string): Map<string, number> {
  const tally = new ReadTally();
  for (const line of trace.split("\n")) tally.add(line);
  return tally.byPath;
}

/** The trace can run to gigabytes (the server's journal reads): tallied as it is read, never held. */
async function tallyFile(file: string): Promise<Map<string, number>> {
  const tally = new ReadTally();
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) tally.add(line);
  fs.rmSync(file, { force: true });
  return tally.byPath;
}

export function straceAvailable(): boolean {
  return spawnSync("strace", ["-V"]).status === 0;
}

/**
 * Runs `during` with the process tree of `pid` traced; null when strace is missing or may not
 * attach. `only`: trace just the calls on these paths (strace -P), which slows the server far less
 * than tracing its every journal read.
 */
export async function readsDuring(pid: number, traceFile: string, during: () => Promise<void>, only: string[] = []): Promise<Map<string, number> | null> {
  if (!straceAvailable()) return null;
  const args = [
    "-f", "-y", "-s", "0", "-e", "trace=read,pread64,readv,preadv", "-o", traceFile, ...only.flatMap((p) => ["-P", p]), ...processTree(pid).flatMap((p) => ["-p", String(p)]),
  ];
  const strace = spawn("strace", args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  strace.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => strace.on("exit", resolve));
  // Attached once it says so for every thread; a refusal (no ptrace here) ends it at once.
  const attached = await Promise.race([
    new Promise<boolean>((resolve) => strace.stderr.on("data", () => /attached/.test(stderr) && resolve(true))),
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(/attached/.test(stderr)), 5000)),
  ]);
  if (!attached) {
    strace.kill("SIGINT");
    return null;
  }
  try {
    await during();
  } finally {
    strace.kill("SIGINT"); // detaches, leaving the server running
    await exited;
  }
  return tallyFile(traceFile);
}
