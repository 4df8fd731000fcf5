import "server-only";
import type { BulkLoad } from "@/lib/journal/bulk";
import type { JournalWriter } from "@/lib/journal/writer";
import type { FoundFile } from "@/lib/protocols";
import { agentsOrNull, type SourceListing, type UnreadableDir } from "./listing";
import { sweepOf } from "./cleanup";
import { compareHere, fromDiff, type Comparison } from "./compare";
import type { TreeDiff } from "./worker";
import { loadOnWorkers, workersForLoad, type LoadedOnWorkers } from "./load-workers";
import { newestFirstLoad, type LoadFront } from "./newest-first";
import { loadPacked, newestOfListed } from "./list-workers";
import { WarmAhead } from "./warm-ahead";
import { byteBatches, prepareHere, yieldToEventLoop } from "./main-thread";
import { commitFile, type PreparedFile, type ReadableSource, type SyncContext } from "./sync";

/** Files journaled per transaction (fewer commits rewrite fewer index pages); between chunks the event loop serves requests. */
export const CHUNK = 2000;
/**
 * Below this a first scan reads on the main thread: workers start cold (their own module load and
 * JIT), which a small tree does not win back. Measured on the production build with 2 cores: at
 * 6,000 files the main thread loaded in 0.74-0.84 s and two workers in 1.08-1.27 s; at 20,000
 * the two were even.
 */
export const WORKERS_MIN_FILES = 20_000;



/**
 * Dead letters in the order they were written (their Date, else their file's time), not the order
 * they were listed in: a message seen only through its letters is then journaled from its first
 * one, and each letter's "dead-lettered" comes after the message was first seen.
 */
function oldestFirst(letters: readonly PreparedFile[]): PreparedFile[] {
  const writtenAt = ({ record }: PreparedFile) => (record.parsed.date ? Date.parse(record.parsed.date) : record.found.mtimeMs);
  return letters.map((p) => ({ p, t: writtenAt(p) })).sort((a, b) => a.t - b.t).map(({ p }) => p);
}

/** Journal dead letters through the writer (after the messages they may link to), in one transaction. */
function commitLetters(ctx: SyncContext, deadLetters: readonly PreparedFile[]): void {
  const letters = oldestFirst(deadLetters);
  if (letters.length === 0) return;
  ctx.writer.transaction(() =>
    ctx.writer.settlingOnce(() => {
      for (const p of letters) commitFile(ctx, p);
    }),
  );
}

/** Where a bulk first scan's time went (ms), for the server log and the bench. */
export interface LoadStages {
  listMs: number;
  /** Worker threads the listing ran on (0: the main thread listed). */
  listedOn: number;
  /** From the scan's start to its newest chunk journaled (null: the load was not newest first). */
  newestMs: number | null;
  loadMs: number;
  /** Worker threads that loaded (0: the main thread did). */
  workers: number;
  /** Files read into the page cache ahead of the load (see warm-files.ts, warm-ahead.ts); null: none were. */
  readAhead: number | null;
  indexMs: number;
  deadLettersMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** One log line for a bulk first scan, e.g. "first scan of /ws: 99,019 files listed in 0.25 s, …". */
export function describeLoad(root: string, files: number, s: LoadStages): string {
  const on = (workers: number) => (workers > 0 ? `on ${workers} worker thread${workers === 1 ? "" : "s"}` : "on the main thread");
  const listedOn = s.listedOn > 0 ? ` ${on(s.listedOn)}` : "";
  const readAhead = s.readAhead === null ? "" : ` (${s.readAhead.toLocaleString("en-US")} files read ahead)`;
  const newest = s.newestMs === null ? "" : `the newest chunk journaled at ${seconds(s.newestMs)}, `;
  return `first scan of ${root}: ${files.toLocaleString("en-US")} files listed in ${seconds(s.listMs)}${listedOn}, ${newest}` +
    `loaded in ${seconds(s.loadMs)} ${on(s.workers)}${readAhead}, indexes built in ${seconds(s.indexMs)}, ` +
    `dead letters journaled in ${seconds(s.deadLettersMs)}`;
}

/**
 * A bulk load whose indexes and insert triggers could not be put back. Journaling more into that
 * state would be slow (lookups scan the table) and miss the overview's counts; the next start's
 * open puts them back.
 */
export class UnfinishedLoadError extends Error {}

/** End a bulk load (see BulkLoad.finish). */
function finishLoad(bulk: BulkLoad, source: string): void {
  try {
    bulk.finish(source);
  } catch (err) {
    throw new UnfinishedLoadError(`could not build the journal's indexes after a bulk load: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * Reconcile a whole source with the journal: new and changed files are read, unchanged ones
 * cost one lstat, and journaled files that are no longer there become gone (after moves have
 * claimed theirs). The first scan of a big tree loads in bulk on worker threads (they read,
 * parse and insert), and reports progress as it goes.
 */
export async function scanSource(
  source: ReadableSource,
  writer: JournalWriter,
  opts: {
    reportProgress: boolean;
    workersMinFiles?: number;
    /** A listing made before this scan's turn (see IngestService.periodicRescan); possibly stale. */
    listing?: SourceListing;
    /** The tree already compared with the journal (on a worker thread); possibly stale. */
    diff?: TreeDiff;
    /** The service is stopping: a load on workers hands out no more chunks (what it loaded stays). */
    stopped?: () => boolean;
    /** Files per chunk (default CHUNK); tests make several chunks of a small tree with it. */
    chunkFiles?: number;
    /**
     * Each folder this scan lists here, just before it reads it: a file written during a long
     * first scan then sends an event, instead of waiting for a rescan.
     */
    onDir?: (dir: string) => void;
    /** After each chunk of a load is committed, before its claim: what is now shown that must be settled at once (stuck). */
    afterChunk?: () => void;
    /** Once the tree is listed (a big first scan's: its newest files known), before anything is read (see HeadStart). */
    onListed?: () => void;
  },
): Promise<{ files: number; gone: number; load: LoadStages | null; dirs: string[] | null; unreadable: UnreadableDir[] }> {
  const startedAt = performance.now();
  const minFiles = opts.workersMinFiles ?? WORKERS_MIN_FILES;
  let early: ReturnType<typeof workersForLoad> | null = null;
  let tree: Comparison;
  let bulk: BulkLoad | null;
  try {
    let empty = false;
    if (opts.diff) tree = fromDiff(source, opts.diff);
    else {
      const known = await writer.presentFiles(source.id, yieldToEventLoop);
      empty = known.size === 0;
      // An empty journal loads in bulk, so a big tree's workers can start while it is listed.
      if (empty) early = workersForLoad(minFiles);
      tree = await compareHere(source, known, { listing: opts.listing, onDir: opts.onDir, early, minFiles });
    }
    opts.onListed?.();
    // Agents whose folder cannot be read are left as they were, not emptied.
    const agents = tree.agents ?? (await agentsOrNull(source.reader));
    if (agents) writer.setAgents(source.id, agents);
    if (opts.reportProgress) writer.setProgress(source.id, tree.files - (tree.packed?.size ?? tree.changed.length), tree.files, false);
    // A claim left by a load that did not end (a crash) is not this scan's.
    writer.setLoadClaim(source.id, null);
    bulk = empty ? writer.beginBulkLoad(source.id) : null;
  } catch (err) {
    await early?.take(false);
    throw err;
  }
  const { isThere } = tree;
  const chunkFiles = opts.chunkFiles ?? CHUNK;
  const { changed, packed } = tree;
  const order = bulk && !packed ? newestFirstLoad(changed, source.reader.nameTimeMs?.bind(source.reader), chunkFiles) : null;
  const packedFirst = bulk && packed ? newestOfListed(packed, chunkFiles) : null;
  const front: LoadFront | null = order?.front ?? packedFirst?.front ?? null;
  let newestAt: number | null = null;
  const ctx: SyncContext = { source, writer, isPresent: isThere };
  const settledEarly = new Set<PreparedFile>();
  let settling = true;
  const onChunk = (i: number, deadLetters: PreparedFile[]) => {
    if (!front || !bulk) return;
    front.chunkDone(i, deadLetters);
    // The newest dead letters are journaled once, after the first chunk, so that the newest page
    // holds them in the first seconds; the rest wait for the end (each time costs an index build).
    if (settling && front.chunksIn >= 1) {
      settling = false;
      const early = front.takeSettled();
      if (early.length > 0) bulk.withIndexes(() => commitLetters(ctx, early));
      for (const p of early) settledEarly.add(p);
    }
    opts.afterChunk?.();
    writer.setLoadClaim(source.id, front.completeAfterMs());
    if (front.chunksIn >= 1) newestAt ??= performance.now();
  };
  let done = tree.files - changed.length;
  const workers = (await early?.take(bulk !== null && (changed.length >= minFiles || packed !== null))) ?? null;
  // Dead letters link to other messages, so they follow the other files (see oldestFirst).
  const afterLoad: PreparedFile[] = [];
  let readAhead: number | null = null;
  const tookLoad = (loaded: LoadedOnWorkers) => {
    afterLoad.push(...loaded.deadLetters);
    readAhead = loaded.readAhead?.read ?? null;
  };
  const listedAt = performance.now();
  const chunks: FoundFile[][] = order?.chunks ?? [];
  if (!order) for (let i = 0; i < changed.length; i += chunkFiles) chunks.push(changed.slice(i, i + chunkFiles));
  // A first scan's load on this thread warms its files ahead from a cold disk, as its workers' does (warm-ahead.ts).
  const warm = bulk && !workers ? new WarmAhead(chunks.flat(), (f) => ({ root: source.root, relPath: f.relPath })) : null;
  const firstOf: number[] = [];
  if (warm) chunks.reduce((n, c) => (firstOf.push(n), n + c.length), 0);
  const loadHere = async (chunk: number, files: FoundFile[]) => {
    const prepared = await prepareHere(source, files, warm ? { ahead: warm, from: firstOf[chunk] ?? 0 } : undefined);
    const deadLetters = prepared.filter((p) => p.record.parsed.deadLetter);
    afterLoad.push(...deadLetters);
    const batches = byteBatches(prepared.filter((p) => !p.record.parsed.deadLetter));
    for (const [i, batch] of batches.entries()) {
      // The chunk's files count as done with its last batch.
      const last = i === batches.length - 1;
      if (bulk) bulk.add(source.id, batch.map((p) => p.record), last ? files.length : 0);
      else writer.transaction(() => batch.forEach((p) => commitFile(ctx, p)));
      if (!last) await yieldToEventLoop();
    }
    if (!bulk) {
      done += files.length;
      if (opts.reportProgress) writer.setProgress(source.id, done, tree.files, false);
    }
    onChunk(chunk, deadLetters);
    await yieldToEventLoop();
  };
  try {
    if (bulk && workers && packed && packedFirst) {
      const stopped = opts.stopped ?? (() => false);
      tookLoad(await loadPacked(source, packed, packedFirst, workers, bulk, { chunkFiles, stopped, loadHere, onChunk }));
    } else if (bulk && workers) {
      // A newest-first load's small first chunk is read here while the workers start (cold, a few
      // tenths of a second; at 100,000 files on a busy machine the first chunk took 1.5 s on them).
      const here = order && !opts.stopped?.() ? 1 : 0;
      for (const [chunk, files] of chunks.slice(0, here).entries()) await loadHere(chunk, files);
      const onWorkerChunk = (i: number, deadLetters: PreparedFile[]) => onChunk(i + here, deadLetters);
      const rest = { count: chunks.length - here, at: (i: number) => chunks[i + here] ?? [] };
      tookLoad(await loadOnWorkers(source, rest, workers, bulk, { stopped: opts.stopped ?? (() => false), onChunk: onWorkerChunk }));
    } else {
      for (const [chunk, files] of chunks.entries()) await loadHere(chunk, files);
      if (warm?.warming) readAhead = warm.read;
    }
  } catch (err) {
    // A load that failed before the workers took their chunks leaves them running.
    await workers?.close();
    // What was loaded stays, with its indexes back now rather than at the next start.
    try {
      if (bulk) finishLoad(bulk, source.id);
    } catch (finishErr) {
      console.error("[mailroom] a bulk load failed, and so did building its indexes:", err);
      throw finishErr;
    }
    // Worker threads are a speed-up, never a dependency: the files they did not load are read
    // here. Not without the indexes (every lookup would scan the table), nor when stopping.
    if (workers && !opts.stopped?.()) {
      console.error("[mailroom] loading on worker threads failed; reading the rest on the main thread:", err);
      return scanSource(source, writer, { ...opts, workersMinFiles: Infinity });
    }
    throw err;
  } finally {
    await warm?.close();
  }
  let load: LoadStages | null = null;
  const loadedAt = performance.now();
  if (bulk) finishLoad(bulk, source.id);
  const indexedAt = performance.now();
  commitLetters(ctx, afterLoad.filter((p) => !settledEarly.has(p)));
  if (bulk) {
    const [listMs, loadMs, indexMs] = [listedAt - startedAt, loadedAt - listedAt, indexedAt - loadedAt];
    const newestMs = newestAt === null ? null : newestAt - startedAt;
    load = { listMs, listedOn: tree.listedOn, newestMs, loadMs, workers: workers?.size ?? 0, readAhead, indexMs, deadLettersMs: performance.now() - indexedAt };
  }

  // Journaled when the tree was compared but not listed (this scan only adds listed files, and
  // events wait their turn). After a bulk load every journaled file was just listed: nothing can
  // be gone. Asked in chunks: a stale listing's isThere is an lstat each. One in a folder that could
  // not be read is not gone (isThere): a chmod 000 must not complete a queue's messages.
  const unlisted = bulk ? [] : tree.unlisted;
  const missing: string[] = [];
  for (let i = 0; i < unlisted.length; i += CHUNK) {
    missing.push(...unlisted.slice(i, i + CHUNK).filter((p) => !isThere(p)));
    await yieldToEventLoop();
  }
  // All of them judged as one batch (a clean-up or not) before any is marked.
  const sweep = sweepOf(writer, source.id, missing.length);
  let gone = 0;
  for (let i = 0; i < missing.length; i += CHUNK) {
    writer.transaction(() => {
      for (const relPath of missing.slice(i, i + CHUNK)) if (writer.markGone(source.id, relPath, sweep)) gone++;
    });
    await yieldToEventLoop();
  }
  writer.setProgress(source.id, tree.files, tree.files, true);
  writer.setLoadClaim(source.id, null);
  return { files: tree.files, gone, load, dirs: tree.dirs, unreadable: tree.unreadable };
}
