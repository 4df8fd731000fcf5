import "server-only";
// A first scan of entry sources (many entries a file) reads their changed files newest first by
// mtime, across every entry source at once, so the newest page is in after the first commit. An
// lstat a file is already paid by the listing: entry trees hold few files (a 100 MB channel is one).
import type { EntrySourceFile } from "./entry-files";

/**
 * How far an entry's date may be after its file's mtime. A writer takes an entry's date as it
 * appends it, and the append sets the mtime, so the date is no later but for clock reads a moment
 * apart, or a writer on another clock (a tool in a container): 10 s, as for IGNITE's name times.
 * An entry with no date sorts at its file's time, never after.
 */
export const ENTRY_CLOCK_SLACK_MS = 10_000;

/** One changed file of one source (or a part of it), in the load's order. */
export interface OrderedFile<S> {
  source: S;
  file: EntrySourceFile;
  /** Its entries are dated no later than this (plus the slack): the file's mtime, or for the rest of a file whose tail is in, that tail's oldest date. */
  newestMs: number;
  /** Only the file's newest part (readTail): the rest is a part of its own, placed by what the tail holds. */
  tail?: boolean;
  /** That rest: the file read from its start, its oldest entries first. */
  rest?: boolean;
}

/** The changed files of several sources in one order, newest mtime first (ties by source, then path, so it is the same on every run). */
export function newestFilesFirst<S extends { id: string }>(
  changed: readonly { source: S; files: readonly EntrySourceFile[] }[],
  tailFirst: (source: S, file: EntrySourceFile) => boolean = () => false,
): OrderedFile<S>[] {
  const all = changed.flatMap(({ source, files }) => files.map((file): OrderedFile<S> => ({ source, file, newestMs: file.mtimeMs, ...(tailFirst(source, file) ? { tail: true } : {}) })));
  return all.sort((a, b) => b.newestMs - a.newestMs || a.source.id.localeCompare(b.source.id) || a.file.relPath.localeCompare(b.file.relPath));
}

/** The oldest date among a tail's entries: the rest of its file is no newer (null: an undated entry says nothing). */
export function oldestDateMs(entries: readonly { date: string | null }[]): number | null {
  let oldest = Infinity;
  for (const e of entries) {
    const ms = e.date ? Date.parse(e.date) : NaN;
    if (!Number.isFinite(ms)) return null;
    oldest = Math.min(oldest, ms);
  }
  return Number.isFinite(oldest) ? oldest : null;
}

/**
 * What a newest-first load of entry files has journaled, as a claim per source a reader can trust:
 * every message of the source sorted after `claimMs(source)` (its date, else its file's time) is
 * journaled. Files are committed in the load's order, so what is in is a prefix of it; a file read
 * in several commits (a big channel, from its start) counts once its last read is committed. A file
 * not yet in holds entries dated no later than its listed mtime plus the slack; the rest of a
 * channel whose tail is in, no later than that tail's oldest entry (a channel is appended to as its
 * entries are written, so its order is theirs, give or take the slack). The claim is about
 * the tree as listed: what is appended meanwhile waits for its file event, as it does for a file
 * already read. It rests on writers dating entries as they write them; every message shown is as
 * journaled.
 */
export class EntryLoadFront<S extends { id: string }> {
  private committed = 0;
  /** Parts committed by source, a tail not counted (its file is not in until its rest is). */
  private readonly loadedOf = new Map<string, number>();

  /** `order`: the load's, which insert() adds to (the load reads it as it grows). */
  constructor(private readonly order: OrderedFile<S>[]) {}

  /** A part learnt of during the load (the rest of a file whose tail was read), placed by its time after every part already read. */
  insert(part: OrderedFile<S>, after: number): void {
    let at = after;
    while (at < this.order.length && (this.order[at]?.newestMs ?? -Infinity) >= part.newestMs) at++;
    this.order.splice(at, 0, part);
  }

  /** The first `files` parts of the order are committed (each whole). */
  commitThrough(files: number): void {
    for (; this.committed < Math.min(files, this.order.length); this.committed++) {
      const part = this.order[this.committed];
      if (!part || part.tail) continue;
      this.loadedOf.set(part.source.id, (this.loadedOf.get(part.source.id) ?? 0) + 1);
    }
  }

  /** Of `source`'s changed files, how many are committed. */
  loaded(source: string): number {
    return this.loadedOf.get(source) ?? 0;
  }

  /** Every message of `source` sorted after this is journaled (Number.MIN_SAFE_INTEGER: all of its files are in). */
  claimMs(source: string): number {
    for (let i = this.committed; i < this.order.length; i++) {
      const o = this.order[i];
      if (o?.source.id === source) return Math.trunc(o.newestMs) + ENTRY_CLOCK_SLACK_MS;
    }
    return Number.MIN_SAFE_INTEGER;
  }
}
