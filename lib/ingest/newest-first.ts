import "server-only";
import type { FoundFile } from "@/lib/protocols";
import type { PreparedFile } from "./sync";

/**
 * How far a message's Date may be after the time in its file's name. IGNITE's builder takes both
 * from one clock as it writes the file (docs/protocols/ignite-mime.md "File names"); Date is cut
 * to whole seconds (so it is never later) and a retry, a requeue or the monitor's rename keeps
 * both. 10 s covers the two being read a moment apart and the monitor's 10 s poll, with room.
 */
export const NAME_CLOCK_SLACK_MS = 10_000;

/**
 * A first scan's files, newest first by the time in their names: what a person opens first
 * (the newest page) is then loaded in the first seconds, whatever the tree's size. Files whose
 * name tells no time come first, in listing order: their Date could be anything, and loaded
 * first they no longer hold back the claim of LoadFront. Sorting by the name costs no stat:
 * a first scan lists without stats (an lstat each cost 1 s of 100,000 files on the main thread).
 */
/** A root-relative path's last segment: what SourceReader.nameTimeMs reads. */
export const fileName = (relPath: string): string => relPath.slice(relPath.lastIndexOf("/") + 1);

export function newestFirst(files: readonly FoundFile[], timeOf: (name: string) => number | null): { files: FoundFile[]; times: (number | null)[] } {
  // Typed arrays, not an object per file: at a million files the objects' sort took 2–3 s of the
  // main thread, the indexes' 0.4 s.
  const times = new Float64Array(files.length);
  for (let i = 0; i < files.length; i++) times[i] = timeOf(fileName((files[i] as FoundFile).relPath)) ?? NaN;
  const order = orderNewestFirst(times);
  return {
    files: Array.from(order, (i) => files[i] as FoundFile),
    times: Array.from(order, (i) => (Number.isNaN(times[i]) ? null : (times[i] as number))),
  };
}

/** newestFirst's order of file `a` (name time `ta`, NaN: none) and file `b` (`tb`), by their places in the listing: negative when `a` comes first. */
export function newerFirst(ta: number, a: number, tb: number, b: number): number {
  if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.isNaN(ta) ? (Number.isNaN(tb) ? a - b : -1) : 1;
  return tb - ta || a - b;
}

/** newestFirst's order of files by their name times (NaN: none): negative when file `a` comes before `b`. */
function newestFirstCompare(times: Float64Array): (a: number, b: number) => number {
  return (a, b) => newerFirst(times[a] as number, a, times[b] as number, b);
}

/** The indexes of `times` in newestFirst's order. */
export function orderNewestFirst(times: Float64Array): Uint32Array {
  const order = new Uint32Array(times.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort(newestFirstCompare(times));
}

/**
 * The first `k` of orderNewestFirst(times), in that order, found in one pass (a heap of k) rather
 * than a sort of them all; and the index of the one after them (null when there are no more).
 * A load reads these while the rest is sorted.
 */
export function selectNewest(times: Float64Array, k: number): { first: number[]; next: number | null } {
  const compare = newestFirstCompare(times);
  // A heap whose root is the last of those kept so far.
  const heap: number[] = [];
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as number, heap[i] as number]);
  const later = (i: number, j: number) => compare(heap[i] as number, heap[j] as number) > 0;
  let next: number | null = null;
  const passedOver = (i: number) => {
    if (next === null || compare(i, next) < 0) next = i;
  };
  for (let i = 0; i < times.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let c = heap.length - 1, p = (c - 1) >> 1; c > 0 && later(c, p); c = p, p = (c - 1) >> 1) swap(c, p);
      continue;
    }
    if (k === 0 || compare(i, heap[0] as number) > 0) {
      passedOver(i);
      continue;
    }
    passedOver(heap[0] as number);
    heap[0] = i;
    for (let p = 0; ; ) {
      const [l, r] = [2 * p + 1, 2 * p + 2];
      let last = p;
      if (l < heap.length && later(l, last)) last = l;
      if (r < heap.length && later(r, last)) last = r;
      if (last === p) break;
      swap(p, last);
      p = last;
    }
  }
  return { first: heap.sort(compare), next };
}

/** The message's sort time as the journal will set it (its Date, else at most its file's time). */
function sortMsOf(record: PreparedFile["record"]): number {
  const date = record.parsed.date ? Date.parse(record.parsed.date) : NaN;
  return Number.isFinite(date) ? date : record.found.mtimeMs;
}

/**
 * What a load of newest-first chunks has journaled, as a claim a reader can trust: every message
 * whose sort time (its Date, else its file's time) is after `completeAfterMs` is in the journal.
 *
 * Chunks may finish out of order (several workers), so only the run of chunks finished from the
 * first counts. A file not yet loaded has a name time no later than the next chunk's first, and
 * (NAME_CLOCK_SLACK_MS) a Date no later than that plus the slack; a file with no name time is in
 * the first chunks, so until they are loaded nothing is claimed. Dead letters wait to be journaled
 * (see takeSettled): those read so far hold the claim above their own (and their original's) time. The
 * claim rests on IGNITE writing Date with the name; a file named by something else (a number that
 * looks like a time, an undated file rewritten later) may still turn up above it. It is only a
 * claim about what is missing: every message shown is as journaled.
 */
export class LoadFront {
  private finished: boolean[];
  private prefix = 0;
  /** Dead letters read but not yet journaled. */
  private pending: PreparedFile[] = [];

  /** `firstTimes[i]`: the name time of chunk i's first (newest) file, null when it has none. */
  constructor(private firstTimes: readonly (number | null)[]) {
    this.finished = firstTimes.map(() => false);
  }

  /**
   * The load began with its first chunk and one placeholder for the rest (`firstTimes` [first,
   * the rest's newest]), so that chunk 0 could be read while the rest was ordered: the rest is
   * now cut into chunks, chunk 1 on, whose first times are `restTimes` (the first, the same newest).
   */
  restIs(restTimes: readonly (number | null)[]): void {
    if (this.finished.length !== 2 || this.finished[1]) throw new Error("the rest of a load is cut into chunks once, before any of it is loaded");
    this.firstTimes = [this.firstTimes[0] ?? null, ...restTimes];
    this.finished = [this.finished[0] ?? false, ...restTimes.map(() => false)];
  }

  /** Chunk `i` is committed; `deadLetters` it read wait to be journaled. Returns the claim (see completeAfterMs). */
  chunkDone(i: number, deadLetters: readonly PreparedFile[]): number | null {
    this.finished[i] = true;
    while (this.finished[this.prefix]) this.prefix++;
    this.pending.push(...deadLetters);
    return this.completeAfterMs();
  }

  /** Chunks committed from the first on, without a gap. */
  get chunksIn(): number {
    return this.prefix;
  }

  /**
   * The dead letters read so far that can be journaled now as they would be at the end of the
   * load, taken out of those waiting: a letter links to its original, which is journaled from the
   * copy inside it only when no file of it was loaded; so every file of that message must be in.
   * The original's Date is in the copy; by the same slack as the claim, a live file of it, and any
   * other letter of it (written after it), is named no earlier than that Date less the slack: once
   * that is after every name not yet loaded, they are all in.
   */
  takeSettled(): PreparedFile[] {
    const unloaded = this.unloadedAfterMs();
    if (unloaded === null) return [];
    const settled = this.pending.filter((p) => p.original !== null && p.original.parsed.date !== null && sortMsOf(p.original) > unloaded);
    this.pending = this.pending.filter((p) => !settled.includes(p));
    return settled;
  }

  /** Every message sorted after this is journaled; null: nothing can be claimed yet. */
  completeAfterMs(): number | null {
    const unloaded = this.unloadedAfterMs();
    if (unloaded === null) return null;
    const after = this.pending.reduce((max, p) => Math.max(max, sortMsOf(p.record), p.original ? sortMsOf(p.original) : -Infinity), unloaded);
    return Number.isFinite(after) ? after : Number.MIN_SAFE_INTEGER;
  }

  /** No file not yet loaded holds a message sorted after this (-Infinity: all are loaded; null: it cannot be said). */
  private unloadedAfterMs(): number | null {
    if (this.prefix >= this.firstTimes.length) return -Infinity;
    const next = this.firstTimes[this.prefix];
    return next === null || next === undefined ? null : next + NAME_CLOCK_SLACK_MS;
  }
}

/**
 * The first chunk of a newest-first load is small, so the newest page is in soon after the listing:
 * at 100,000 files on a busy 2-core machine (load average 9), 2,000 files on the workers were in
 * 1.6 s after the listing; 250 read on the main thread (see scanSource), 0.65 s.
 */
export const FIRST_CHUNK_FILES = 250;

/**
 * A bulk load's chunks newest first (the first one small), and the claim they make as they are
 * committed; null when the protocol's names tell no time.
 */
export function newestFirstLoad(files: FoundFile[], timeOf: ((name: string) => number | null) | undefined, chunkFiles: number) {
  if (!timeOf) return null;
  const ordered = newestFirst(files, timeOf);
  const chunks: FoundFile[][] = [];
  const firstTimes: (number | null)[] = [];
  for (let start = 0, size = Math.min(FIRST_CHUNK_FILES, chunkFiles); start < ordered.files.length; start += size, size = chunkFiles) {
    chunks.push(ordered.files.slice(start, start + size));
    firstTimes.push(ordered.times[start] ?? null);
  }
  return { chunks, front: new LoadFront(firstTimes) };
}
