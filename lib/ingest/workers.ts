import "server-only";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FoundFile } from "@/lib/protocols";
import type { BulkTarget } from "@/lib/journal/bulk";
import type { LaneSeed } from "@/lib/journal/lane";
import type {
  DiffJob, FileReadAhead, FillLaneJob, FullTextJob, MergeLaneJob, Job, JobResult, ListingDir, ListingWalked, ListJob, LoadJob, OrderJob, ReadEntriesJob, TreeDiff, WalkedShare,
} from "./worker";
import type { PackedListing } from "./packed";
import type { PreparedFile, ReadableSource } from "./sync";

/**
 * In the built server the worker is a chunk Next bundles from this `new Worker(new URL(…))`. Run
 * from TypeScript sources (tests, scripts) it loads through tsx, with the server condition so
 * `server-only` resolves to nothing.
 */
function startWorker(): Worker {
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./worker.ts", import.meta.url));
  const here = path.dirname(fileURLToPath(import.meta.url));
  return new Worker(path.join(here, "worker-tsx.cjs"), { execArgv: ["--conditions=react-server"] });
}

/** How long a diff's worker waits for this thread to hear of a folder before it reads it (see diff). */
const DIR_ACK_WAIT_MS = 5_000;

const sourceOf = (s: ReadableSource) => ({ id: s.id, protocol: s.protocol, root: s.root });

/** Structured clone turns Buffers into plain Uint8Arrays; the journal wants Buffers back (the same bytes, not a copy). */
export const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function revive(p: PreparedFile): PreparedFile {
  const buf = (b: Uint8Array | null) => (b === null ? null : asBuffer(b));
  return { record: { ...p.record, raw: buf(p.record.raw) }, original: p.original && { ...p.original, raw: buf(p.original.raw) } };
}

const sayAcksLapsed = (root: string) =>
  console.error(`[mailroom] listing ${root}: the server was too busy to watch each folder before the worker read it; a file written there meanwhile may wait for the next rescan`);

/** What a worker loaded of one chunk, and the dead letters it leaves to the main thread. */
export interface LoadedChunk {
  loaded: number;
  deadLetters: PreparedFile[];
}

/**
 * Worker threads for ingest's whole-tree work. A first scan's load: each worker reads and parses a
 * chunk of files and inserts it into the journal itself (taking turns to write), so neither the
 * parsing (most of a scan's CPU) nor the rows cross threads. A periodic rescan's comparison of the
 * tree with the journal: only the differences come back. The chunks of the full-text index's fill
 * after a start's scan. Either way the main thread stays free for requests.
 */
export class IngestWorkers {
  private readonly pending = new Map<
    number,
    { worker: Worker; settle: (r: JobResult) => void; reject: (e: Error) => void; onDir?: (dir: string) => void; onWalked?: (w: WalkedShare) => void }
  >();
  private readonly writeLock = new SharedArrayBuffer(4);
  /** Workers that exited: a job is never sent to one, where it would wait for an answer that never comes. */
  private readonly gone = new Set<Worker>();
  readonly size: number;
  private nextId = 0;

  private constructor(private readonly workers: Worker[]) {
    this.size = workers.length;
    for (const w of workers) {
      w.on("message", (m: JobResult | ListingDir | ListingWalked) => {
        if ("listingDir" in m) this.hearDir(m);
        else if ("walked" in m) this.pending.get(m.id)?.onWalked?.(m.walked);
        else this.settle(m);
      });
      // A worker that fails or ends (killed, out of memory) must not leave its jobs waiting forever,
      // nor be sent more; the other workers' jobs go on (a lane that fails is not every lane).
      const ended = (err: Error) => {
        this.gone.add(w);
        this.failAll(err, w);
      };
      w.on("error", ended);
      w.on("exit", (code) => ended(new Error(`an ingest worker thread exited (code ${code})`)));
    }
  }

  /**
   * `size` workers, or by default one per core (at most 4), or null on a single core, where a
   * first scan runs as fast on the main thread.
   */
  static open(size?: number): IngestWorkers | null {
    const count = size ?? Math.min(os.availableParallelism(), 4);
    if (count < (size === undefined ? 2 : 1)) return null;
    try {
      return new IngestWorkers(Array.from({ length: count }, startWorker));
    } catch (err) {
      console.error("[mailroom] could not start worker threads; working on the main thread:", err);
      return null;
    }
  }

  /** Read, parse and insert `files` of `source` into `target` on the least busy worker. */
  load(source: ReadableSource, files: FoundFile[], target: BulkTarget): Promise<LoadedChunk> {
    const job: LoadJob = { kind: "load", id: this.nextId++, source: sourceOf(source), files, target, writeLock: this.writeLock };
    return this.send(job, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("loaded" in r)) throw new Error("a worker answered a load with something else");
      for (const f of r.failed) console.error(`[mailroom] could not read ${f.relPath}: ${f.error}`);
      return { loaded: r.loaded, deadLetters: r.deadLetters.map(revive) };
    });
  }

  /**
   * List `source` and compare it with what `journalFile` holds for it, on the least busy worker.
   * `onDir` hears each folder before it is read (the worker waits for it, up to `dirAckWaitMs`
   * each), so a watch it sets misses nothing the listing does not have.
   */
  diff(source: ReadableSource, journalFile: string, onDir?: (dir: string) => void, dirAckWaitMs = DIR_ACK_WAIT_MS): Promise<TreeDiff> {
    const dirsAcked = onDir ? new SharedArrayBuffer(4) : null;
    const job: DiffJob = { kind: "diff", id: this.nextId++, source: sourceOf(source), journalFile, dirsAcked, dirAckWaitMs };
    return this.send(job, onDir, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("changed" in r)) throw new Error("a worker answered a rescan with something else");
      if (r.dirAcksLapsed) sayAcksLapsed(source.root);
      return { files: r.files, agents: r.agents, changed: r.changed, missing: r.missing, unreadable: r.unreadable, dirs: r.dirs, dirAcksLapsed: r.dirAcksLapsed };
    });
  }

  /**
   * List share `share` of `source` (a first scan's listing, packed: see ListJob). `onDir` hears
   * each folder before it is read, as a diff's does. `walked` is the share as its walk found it,
   * with its `newest` newest files; `listing`, the whole share packed, comes after it.
   */
  list(
    source: ReadableSource,
    share: ListJob["share"],
    onDir: (dir: string) => void,
    { newest = 1, dirAckWaitMs = DIR_ACK_WAIT_MS }: { newest?: number; dirAckWaitMs?: number } = {},
  ): { walked: Promise<WalkedShare>; listing: Promise<PackedListing> } {
    const job: ListJob = { kind: "list", id: this.nextId++, source: sourceOf(source), share, dirsAcked: new SharedArrayBuffer(4), dirAckWaitMs, newest };
    let walkDone: (w: WalkedShare) => void = () => undefined;
    let walkFailed: (err: unknown) => void = () => undefined;
    const walked = new Promise<WalkedShare>((resolve, reject) => ([walkDone, walkFailed] = [resolve, reject]));
    const onWalked = (w: WalkedShare) => {
      if (w.dirAcksLapsed) sayAcksLapsed(source.root);
      walkDone(w);
    };
    const listing = this.send(job, onDir, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("listing" in r)) throw new Error("a worker answered a listing with something else");
      return r.listing;
    }, [], onWalked);
    // A listing that fails before its walk is done fails the walk too (after it, resolving again does nothing).
    listing.catch(walkFailed);
    return { walked, listing };
  }

  /** The newest-first order of files by their name times `times` (see orderNewestFirst), which are handed over. */
  order(times: Float64Array): Promise<Uint32Array> {
    const job: OrderJob = { kind: "order", id: this.nextId++, times };
    return this.send(job, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("order" in r)) throw new Error("a worker answered an ordering with something else");
      return r.order;
    }, [times.buffer as ArrayBuffer]);
  }

  /** Index the bodies of messages `fromId` to `toId` in `journalFile`'s full-text index (one chunk of its fill). */
  fillFullText(journalFile: string, fromId: number, toId: number): Promise<void> {
    const job: FullTextJob = { kind: "fulltext", id: this.nextId++, journalFile, fromId, toId };
    return this.send(job, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("filled" in r)) throw new Error("a worker answered a full-text fill with something else");
    });
  }

  /** Read entry files ahead of a load, on the least busy worker (see entry-read-ahead.ts); one answer a file, in order. */
  readEntries(job: Omit<ReadEntriesJob, "kind" | "id">): Promise<FileReadAhead[]> {
    return this.send({ ...job, kind: "readEntries", id: this.nextId++ }, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("read" in r)) throw new Error("a worker answered a read of entry files with something else");
      return r.read;
    });
  }

  /** Go on with some entry sources' first fills in a lane's journal of their own (see entry-lanes.ts), on the least busy worker. */
  fillLane(job: Omit<FillLaneJob, "kind" | "id">): Promise<{ seed: LaneSeed; changed: number }> {
    return this.send({ ...job, kind: "fillLane", id: this.nextId++ }, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("lane" in r)) throw new Error("a worker answered a lane's fill with something else");
      return r.lane;
    });
  }

  /** Merge a filled lane into the journal on a worker's own connection. */
  mergeLane(job: Omit<MergeLaneJob, "kind" | "id">): Promise<number> {
    return this.send({ ...job, kind: "mergeLane", id: this.nextId++ }, undefined, (r) => {
      if ("error" in r) throw new Error(r.error);
      if (!("merged" in r)) throw new Error("a worker answered a lane's merge with something else");
      return r.merged;
    });
  }

  private send<T>(
    job: Job,
    onDir: ((dir: string) => void) | undefined,
    answer: (r: JobResult) => T,
    transfer: ArrayBuffer[] = [],
    onWalked?: (w: WalkedShare) => void,
  ): Promise<T> {
    const busy = (w: Worker) => [...this.pending.values()].filter((p) => p.worker === w).length;
    const alive = this.workers.filter((w) => !this.gone.has(w));
    const worker = alive.reduce<Worker | undefined>((best, w) => (!best || busy(w) < busy(best) ? w : best), undefined);
    if (!worker) return Promise.reject(new Error("every ingest worker thread has exited"));
    return new Promise((resolve, reject) => {
      const settle = (r: JobResult) => {
        try {
          resolve(answer(r));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
      this.pending.set(job.id, { worker, settle, reject, onDir, onWalked });
      worker.postMessage(job, transfer);
    });
  }

  /**
   * Run `fn`, this thread's writes between a load's chunks (its claim, the stuck sweep), in the
   * load's write turn (see holdingWriteLock in worker.ts), waited for without blocking this thread:
   * requests are answered meanwhile. Left to SQLite's busy handler, this thread slept in steps
   * while the workers handed the lock to each other, and every request waited with it.
   */
  async inWriteTurn<T>(fn: () => T): Promise<T> {
    const cell = new Int32Array(this.writeLock);
    while (Atomics.compareExchange(cell, 0, 0, 1) !== 0) {
      const waited = Atomics.waitAsync(cell, 0, 1);
      if (waited.async) await waited.value;
    }
    try {
      return fn();
    } finally {
      Atomics.store(cell, 0, 0);
      Atomics.notify(cell, 0, 1);
    }
  }

  /** Stop the workers; resolves once they are gone, so none is still writing. */
  async close(): Promise<void> {
    this.failAll(new Error("ingest workers closed"));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  /**
   * A folder a job is about to list, to its caller, then counted off for the waiting worker
   * (whatever the callback did). A callback that throws must not become an uncaught exception.
   */
  private hearDir(m: ListingDir): void {
    try {
      this.pending.get(m.id)?.onDir?.(m.listingDir);
    } catch (err) {
      console.error(`[mailroom] could not take note of the folder ${m.listingDir}:`, err);
    } finally {
      const count = new Int32Array(m.acked);
      Atomics.add(count, 0, 1);
      Atomics.notify(count, 0);
    }
  }

  private settle(r: JobResult): void {
    const waiting = this.pending.get(r.id);
    if (!waiting) return;
    this.pending.delete(r.id);
    waiting.settle(r);
  }

  /** Fail the jobs waiting on `worker`, or on every worker. */
  private failAll(err: Error, worker?: Worker): void {
    for (const [id, p] of this.pending) {
      if (worker && p.worker !== worker) continue;
      p.reject(err);
      this.pending.delete(id);
    }
  }
}
