import "server-only";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FoundFile } from "@/lib/protocols";
import type { ReadJob, ReadResult } from "./read-worker";
import type { PreparedFile, ReadableSource } from "./sync";

/**
 * In the built server the worker is a chunk Next bundles from this `new Worker(new URL(…))`. Run
 * from TypeScript sources (tests, scripts) it loads through tsx, with the server condition so
 * `server-only` resolves to nothing.
 */
function startWorker(): Worker {
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./read-worker.ts", import.meta.url));
  const source = path.join(path.dirname(fileURLToPath(import.meta.url)), "read-worker.ts");
  return new Worker(`require("tsx/cjs"); require(${JSON.stringify(source)});`, { eval: true, execArgv: ["--conditions=react-server"] });
}

/** Structured clone turns Buffers into plain Uint8Arrays; the journal wants Buffers back. */
function revive(p: PreparedFile): PreparedFile {
  const buf = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  return { record: { ...p.record, raw: buf(p.record.raw) }, original: p.original && { ...p.original, raw: buf(p.original.raw) } };
}

/**
 * Worker threads that read and parse files for a first scan. A 100,000-file scan spends most of
 * its CPU there; spread over the machine's cores it overlaps with the journal writes.
 */
export class ReadPool {
  private readonly pending = new Map<number, { resolve: (r: PreparedFile[]) => void; reject: (e: Error) => void }>();
  readonly size: number;
  private nextId = 0;
  private turn = 0;

  private constructor(private readonly workers: Worker[]) {
    this.size = workers.length;
    for (const w of workers) {
      w.on("message", (r: ReadResult) => this.settle(r));
      w.on("error", (err) => this.failAll(err));
    }
  }

  /** One worker per core (at most 4), or null on a single core, where the main thread reads as fast. */
  static open(): ReadPool | null {
    const size = Math.min(os.availableParallelism(), 4);
    if (size < 2) return null;
    try {
      return new ReadPool(Array.from({ length: size }, startWorker));
    } catch (err) {
      console.error("[mailroom] could not start reader threads; reading on the main thread:", err);
      return null;
    }
  }

  /** Read and parse `files` of `source` on the next worker. */
  prepare(source: ReadableSource, files: FoundFile[]): Promise<PreparedFile[]> {
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length];
    const job: ReadJob = { id, source: { id: source.id, protocol: source.protocol, root: source.root }, files };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker?.postMessage(job);
    });
  }

  close(): void {
    for (const w of this.workers) void w.terminate();
    this.failAll(new Error("read pool closed"));
  }

  private settle(r: ReadResult): void {
    const waiting = this.pending.get(r.id);
    if (!waiting) return;
    this.pending.delete(r.id);
    if ("error" in r) return waiting.reject(new Error(r.error));
    for (const f of r.failed) console.error(`[mailroom] could not read ${f.relPath}: ${f.error}`);
    waiting.resolve(r.prepared.map(revive));
  }

  private failAll(err: Error): void {
    for (const w of this.pending.values()) w.reject(err);
    this.pending.clear();
  }
}
