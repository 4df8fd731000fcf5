import "server-only";
// A worker thread for ingest's whole-tree work, so the main thread keeps answering requests (see
// workers.ts). A first scan's bulk load: read and parse files (most of a scan's CPU) and insert
// their rows through this thread's own connection, taking turns with the other workers. A
// periodic rescan, or a start over a big journaled tree: list the tree and compare it with the
// journal, handing back only what differs. After a start's scan: the full-text index's fill, a chunk a job.
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { BulkInserter } from "@/lib/journal/bulk";
import { openWorkerDb, type Db } from "@/lib/journal/db";
import { fileIdentities, type FileIdentity } from "@/lib/journal/files";
import { fillFullTextChunk } from "@/lib/journal/fulltext";
import { mergeLane } from "@/lib/journal/lane";
import type { FileRecord } from "@/lib/journal/writer";
import type { Protocol } from "@/lib/model";
import { adapterFor, type SourceReader } from "@/lib/protocols";
import { agentsOrNull, listSource, underUnreadable } from "./listing";
import { compareListing, prepareFile, type PreparedFile } from "./sync";
import { readEntriesAhead } from "./entry-read-job";
import { fillLane } from "./lane-job";
import { orderNewestFirst, selectNewest } from "./newest-first";
import { nameTimes, pack, transferOf as transferListing, unpackedFileAt, type PlainFolder } from "./packed";
import type {
  DiffJob, DiffResult, FullTextJob, FullTextResult, Job, JobResult, ListingDir, ListingWalked, ListJob, ListResult, LoadJob, LoadResult,
} from "./worker-jobs";

export type * from "./worker-jobs";

/**
 * Ingest is background work: requests should win the CPU over a load or a rescan (on two cores a
 * rescan of 100,000 files took the 50-client poll p95 to 169 ms). On Linux a thread's nice value
 * is its own (setpriority applies to the calling thread), so this lowers only this worker. On other
 * systems it would slow the whole server, so it is not done there.
 */
const WORKER_NICE = 10;
let lowered = false;
/**
 * Lowered at this thread's first job that is not a first scan's listing: the newest page waits on
 * that listing (half a second a share at a million files), and at nice 10 beside busy processes
 * it took seconds. Only once: a thread may not raise its priority again.
 */
function lowerPriority(): void {
  if (lowered || process.platform !== "linux") return;
  lowered = true;
  try {
    os.setPriority(WORKER_NICE);
  } catch (err) {
    console.error("[mailroom] could not lower an ingest worker's priority; it runs at the server's:", err);
  }
}

const readers = new Map<string, Promise<SourceReader | null>>();
const connections = new Map<string, Db>();
const inserters = new Map<string, BulkInserter>();

function readerFor(protocol: Protocol, root: string): Promise<SourceReader | null> {
  const key = `${protocol}\0${root}`;
  let reader = readers.get(key);
  if (!reader) {
    reader = adapterFor(protocol)?.open(root) ?? Promise.resolve(null);
    readers.set(key, reader);
  }
  return reader;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** This thread's write connection to a journal, opened once. */
function connectionTo(file: string): Db {
  let db = connections.get(file);
  if (!db) {
    db = openWorkerDb(file);
    connections.set(file, db);
  }
  return db;
}

function inserterFor(file: string): BulkInserter {
  let inserter = inserters.get(file);
  if (!inserter) {
    inserter = new BulkInserter(connectionTo(file));
    inserters.set(file, inserter);
  }
  return inserter;
}

/** Run `fn` holding the load's write lock: a waiter wakes as soon as it is free, where SQLite's busy handler sleeps in steps. */
function holdingWriteLock<T>(lock: SharedArrayBuffer, fn: () => T): T {
  const cell = new Int32Array(lock);
  while (Atomics.compareExchange(cell, 0, 0, 1) !== 0) Atomics.wait(cell, 0, 1);
  try {
    return fn();
  } finally {
    Atomics.store(cell, 0, 0);
    Atomics.notify(cell, 0, 1);
  }
}

async function load(job: LoadJob): Promise<LoadResult> {
  const reader = await readerFor(job.source.protocol, job.source.root);
  if (!reader) return { id: job.id, error: `no ${job.source.protocol} workspace at ${job.source.root} any more` };
  const db = connectionTo(job.target.file);
  const inserter = inserterFor(job.target.file);
  const source = { ...job.source, reader, error: null };
  const records: FileRecord[] = [];
  const deadLetters: PreparedFile[] = [];
  const failed: { relPath: string; error: string }[] = [];
  for (const file of job.files) {
    try {
      const p = await prepareFile(source, file);
      // Dead letters link to other messages: the main thread journals them after the load.
      if (p?.record.parsed.deadLetter) deadLetters.push(p);
      else if (p) records.push(p.record);
    } catch (err) {
      failed.push({ relPath: file.relPath, error: messageOf(err) });
    }
  }
  const rows = BulkInserter.rowsOf(records, job.target.nowMs);
  const insert = db.transaction(() => inserter.insertRows(job.source.id, rows, job.files.length, job.target.nowMs));
  holdingWriteLock(job.writeLock, () => insert.immediate());
  return { id: job.id, loaded: records.length, deadLetters, failed };
}

async function diff(job: DiffJob): Promise<DiffResult> {
  const reader = await readerFor(job.source.protocol, job.source.root);
  if (!reader) return { id: job.id, error: `no ${job.source.protocol} workspace at ${job.source.root} any more` };
  const dirs: string[] = [];
  const beforeRead = job.dirsAcked ? tellBeforeRead(job.id, job.dirsAcked, job.dirAckWaitMs) : null;
  // Read synchronously: this thread serves no requests (see ListOptions.sync).
  const { files: found, unreadable } = await listSource(reader.root, reader, {
    sync: true,
    onDir: (d) => {
      dirs.push(d);
      beforeRead?.tell(d);
    },
  });
  const db = openWorkerDb(job.journalFile, { readonly: true });
  let known: Map<string, FileIdentity>;
  try {
    known = await fileIdentities(db, job.source.id, async () => undefined);
  } finally {
    db.close();
  }
  const { changed, unlisted } = compareListing(found, known);
  const hidden = underUnreadable(unreadable);
  const agents = await agentsOrNull(reader);
  const missing = unlisted.filter((p) => !hidden(p));
  return { id: job.id, files: found.length, agents, changed, missing, unreadable, dirs, dirAcksLapsed: beforeRead?.lapsed() ?? false };
}

async function list(job: ListJob): Promise<ListResult> {
  const reader = await readerFor(job.source.protocol, job.source.root);
  if (!reader) return { id: job.id, error: `no ${job.source.protocol} workspace at ${job.source.root} any more` };
  const dirs: string[] = [];
  const beforeRead = tellBeforeRead(job.id, job.dirsAcked, job.dirAckWaitMs);
  // Read synchronously, without stats (the load's reads fstat each file): see ListOptions.sync.
  const folders: PlainFolder[] = [];
  const { files, unreadable } = await listSource(reader.root, reader, {
    sync: true,
    stat: false,
    share: job.share,
    plainFiles: (relDir, names) => folders.push({ relDir, names }),
    onDir: (d) => {
      dirs.push(d);
      beforeRead.tell(d);
    },
  });
  const times = nameTimes(files, folders, reader.nameTimeMs?.bind(reader));
  // The share's newest ahead of the rest: the main thread picks the tree's newest chunk from them
  // and reads it while this listing is packed, handed over and taken in.
  const at = selectNewest(times, job.newest).first;
  const newest = { at, files: at.map((j) => unpackedFileAt(files, folders, j)), times: at.map((j) => times[j] as number) };
  const walked = { count: times.length, newest, unreadable, dirs, dirAcksLapsed: beforeRead.lapsed() };
  parentPort?.postMessage({ id: job.id, walked } satisfies ListingWalked);
  const listing = pack(files, folders, times);
  return { id: job.id, listing };
}

/**
 * Tells the main thread of each folder and waits until it has counted it off in `acked` (after
 * watching it), so a file written before the watch is in this listing and one written after it
 * sends an event. A main thread that does not answer within `waitMs` (blocked, or gone) is not
 * waited for again in this job, and `lapsed()` says so.
 */
function tellBeforeRead(id: number, acked: SharedArrayBuffer, waitMs: number) {
  const count = new Int32Array(acked);
  let told = 0;
  let waiting = true;
  return {
    tell(listingDir: string): void {
      // The server has waitMs from the moment it is told.
      const until = performance.now() + waitMs;
      parentPort?.postMessage({ id, listingDir, acked } satisfies ListingDir);
      told++;
      for (let seen = Atomics.load(count, 0); waiting && seen < told; seen = Atomics.load(count, 0)) {
        const left = until - performance.now();
        if (left <= 0 || Atomics.wait(count, 0, seen, left) === "timed-out") waiting = false;
      }
    },
    lapsed: () => !waiting,
  };
}

// async: a chunk that throws rejects, and is answered with its error like any other job.
async function fillFullText(job: FullTextJob): Promise<FullTextResult> {
  fillFullTextChunk(connectionTo(job.journalFile), job.fromId, job.toId);
  return { id: job.id, filled: true };
}

function run(job: Job): Promise<JobResult> {
  if (job.kind === "list") return list(job);
  // Not lowered: a load's main thread waits for these reads (see entry-read-ahead.ts).
  if (job.kind === "readEntries") return readEntriesAhead(job);
  // Not lowered either: a merge holds the journal's write lock, and the lanes it waits on are (see entry-lanes.ts).
  if (job.kind === "mergeLane") return Promise.resolve({ id: job.id, merged: mergeLane(connectionTo(job.journalFile), job.laneFile, job.seed) });
  lowerPriority();
  if (job.kind === "load") return load(job);
  if (job.kind === "fillLane") return fillLane(job);
  if (job.kind === "order") return Promise.resolve({ id: job.id, order: orderNewestFirst(job.times) });
  return job.kind === "diff" ? diff(job) : fillFullText(job);
}

/** A result's big buffers, handed over rather than copied. */
function transferOf(r: JobResult): ArrayBuffer[] {
  if ("listing" in r) return transferListing(r.listing);
  return "order" in r ? [r.order.buffer as ArrayBuffer] : [];
}

// One job at a time, in order: jobs run side by side would each hold their files until the
// slowest is done, and the heap they share grows into collections. The chain never rejects, so
// one failed job (or an answer that cannot be sent) never silently drops the jobs after it.
let queue = Promise.resolve();
parentPort?.on("message", (job: Job) => {
  queue = queue.then(async () => {
    // Run inside then(): a job that throws before its first await rejects too, and is answered like any other.
    const result = await Promise.resolve()
      .then(() => run(job))
      .catch((err: unknown) => ({ id: job.id, error: messageOf(err) }));
    try {
      parentPort?.postMessage(result, transferOf(result));
    } catch (err) {
      parentPort?.postMessage({ id: job.id, error: `could not hand back the result: ${messageOf(err)}` });
    }
  });
});
