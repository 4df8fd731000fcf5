import "server-only";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { WarmJob, WarmResult } from "./warm-worker";

// A first scan's load from a cold page cache waited on the disk one file at a time per load
// worker: at 100,000 files (a loaded 2-core machine, per-thread delay accounting) the two workers
// were blocked on reads 5.3-10 s and spent 9.1-10.0 s of CPU reading and parsing, against 5.0 s
// from a warm cache (the kernel's side of each cold read, and a thread that sleeps on every file
// starts every parse with cold CPU caches). So a few threads read the next chunks' files ahead,
// into the page cache, while the workers parse, and the workers read them as from a warm tree:
// blocked 0.0-0.3 s, 4.5-7.2 s of CPU; the server's cold start 26 -> 21.5 s of CPU. A chunk already
// cached costs a thread its first few files only (it asks the kernel whether they came from the
// disk), so a warm tree's load is not slowed.

/**
 * Threads that read ahead: each is one more read in flight (the disk serves them side by side).
 * Two kept ahead of two load workers at 100,000 files on a loaded 2-core machine; each costs
 * ~11 MB of memory (measured: a thread with `fs` and its read buffer) while the load runs.
 */
export const WARM_THREADS = 2;

function startWarmWorker(): Worker {
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./warm-worker.ts", import.meta.url));
  const here = path.dirname(fileURLToPath(import.meta.url));
  return new Worker(path.join(here, "worker-tsx.cjs"), { execArgv: ["--conditions=react-server"], workerData: { tsxEntry: "./warm-worker.ts" } });
}

/** What the read-ahead did: files it read, and those it left unread (found cached). */
export interface WarmTally {
  read: number;
  skipped: number;
}

/**
 * Reads a load's files ahead of it into the page cache, on threads of their own. Only where a
 * thread can tell a cached file from one read off the disk (Linux: /proc/thread-self/io), so a
 * warm tree is not read twice. Never fails the load: a thread that fails only stops warming.
 */
export class FileWarmer {
  private readonly pending = new Map<number, { left: number; done: () => void }>();
  readonly tally: WarmTally = { read: 0, skipped: 0 };
  private nextId = 0;
  private broken = false;

  private constructor(
    private readonly root: string,
    private readonly workers: Worker[],
  ) {
    for (const w of workers) {
      w.on("message", (r: WarmResult) => this.settle(r));
      w.on("error", () => this.stop());
      // A load that ends closes them; they never keep the process alive by themselves.
      w.unref();
    }
  }

  /** The threads, or null where a cached file cannot be told from a cold one (not Linux) or no thread starts. */
  static start(root: string, threads = WARM_THREADS): FileWarmer | null {
    if (process.platform !== "linux" || threads < 1) return null;
    try {
      return new FileWarmer(root, Array.from({ length: threads }, startWarmWorker));
    } catch {
      return null;
    }
  }

  /** Read these files ahead (split between the threads, in order); resolves once all have answered, or the warmer stopped. */
  warm(relPaths: string[]): Promise<void> {
    if (this.broken || relPaths.length === 0) return Promise.resolve();
    const id = this.nextId++;
    const n = this.workers.length;
    return new Promise((done) => {
      this.pending.set(id, { left: n, done });
      // Interleaved, so the threads move through the chunk side by side, in the order it is loaded.
      this.workers.forEach((w, t) => w.postMessage({ id, root: this.root, relPaths: relPaths.filter((_, i) => i % n === t) } satisfies WarmJob));
    });
  }

  private settle(r: WarmResult): void {
    this.tally.read += r.read;
    this.tally.skipped += r.skipped;
    const p = this.pending.get(r.id);
    if (!p || --p.left > 0) return;
    this.pending.delete(r.id);
    p.done();
  }

  private stop(): void {
    this.broken = true;
    for (const p of this.pending.values()) p.done();
    this.pending.clear();
  }

  /** Stop the threads, whatever they were reading (the load no longer needs it). */
  async close(): Promise<void> {
    this.stop();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
