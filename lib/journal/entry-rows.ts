import "server-only";
// What the entry journal is handed and what it makes of one entry's bytes and words: the shapes
// ingest fills, problem entries, an entry's own bytes and size, and journal-safe status words.
import { WORD_PATTERN, type Protocol } from "@/lib/model";
import type { Entry, EntryProblem } from "@/lib/protocols/entries";

export interface EntryFileFacts {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Bytes up to here were read into entries (an incomplete last value waits beyond it). */
  consumed: number;
  /** The file's first bytes: a different head at the same inode means the file was replaced in place. */
  head: Buffer;
}

/** One file as ingest read it. */
export interface EntryFileRead {
  relPath: string;
  facts: EntryFileFacts;
  entries: Entry[];
  /** Problems of the file itself, each listed as an entry of its own so nobody misses it. */
  problems: EntryProblem[];
  /** The bytes read and where in the file they start, to keep each entry's own bytes. */
  bytes: Uint8Array;
  from: number;
  /** Where this read of the file began (its first chunk's `from`; absent: `from`): values from there on are new bytes. */
  readFrom?: number;
  /** None of the file could be read (FileRead.unparsed): its entries stay, though this read holds none. */
  unparsed?: boolean;
  /** The whole file was read: entries it no longer holds have left it. */
  whole: boolean;
  /** A first scan's look at a file's newest part before the rest: how far the file was read is not recorded (its start is still to read). */
  tailOnly?: boolean;
}

/** A file whose entries all left: deleted, or truncated or replaced (read again from its start). */
export interface DeletedFile {
  relPath: string;
  why: "deleted" | "replaced";
  /** A replaced file's locators its re-read found (over every batch it took): those entries stay. */
  kept?: ReadonlySet<string>;
  /** A replaced file's inode, kept once its re-read is over (see REPLACING). */
  ino?: number;
}

/** The inode a replaced file's chunks are kept with until its re-read is over: cut short, the next scan sees another file, replaced again. */
export const REPLACING = -1;

/** What a source's adapter settles: statuses and threads that depend on other entries. */
export interface EntrySourceContext {
  source: string;
  protocol: Protocol;
  resolve: (entries: readonly Entry[]) => Entry[];
  /** The adapter settles an entry from whether anything names it, not from which entries do (ProtocolReadSide.settlesByAnyReferrer). */
  anyReferrer?: boolean;
  /** The version of the adapter's reader (ProtocolReadSide.readerVersion), kept with each file it reads. */
  readerVersion?: number;
  /**
   * Whether a file's entries stay in it for good (an append-only stream): one that leaves did not
   * move to an entry with its id elsewhere, which is a copy of its own (the same KickLang id in two channels).
   */
  keepsItsEntries?: (relPath: string) => boolean;
}

/** A file of many entries as the journal last read it, and by which version of its reader. */
export interface JournaledFile extends EntryFileFacts {
  reader: number;
}

/** An entry's own bytes kept at most: a multi-megabyte line keeps its head, as oversized files do. */
export const MAX_RAW = 1024 * 1024;

/** Where the journal keeps the `i`th problem of a read at byte `at` of its file. */
export const problemLocator = (at: number, i: number) => `problem@${at}.${i}`;

/** A file problem listed as an entry of its own (status invalid), so nobody misses it. */
export const problemEntry = (p: EntryProblem, at: number, i: number, agent: string, folder: string): Entry => ({
  kind: "message", locator: problemLocator(at, i), span: null, messageId: null, from: null, to: [], type: null, priority: null,
  date: null, agent, folder, status: "invalid", rawStatus: null, threadKey: null, inReplyTo: null, correlationId: null,
  retryCount: 0, dueAt: null, body: p.message, data: null, links: [], problems: [p],
});

/**
 * A status or folder word as the journal keeps it: files may say "In Progress" or nothing a
 * word can be made of, and one such row must not stop every list that holds it.
 */
export function journalWord(word: string, fallback: string): string {
  const w = word.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, "_").replace(/^[^a-z]+/, "").slice(0, 32);
  return WORD_PATTERN.test(w) ? w : fallback;
}

/** The entry's own bytes: its span, else what was kept of it (a whole one-entry file), else its text. */
export function sizeOf(e: Entry, keptBytes?: number): number {
  return e.span ? e.span.end - e.span.start : (keptBytes ?? Buffer.byteLength(e.body));
}

/** The entry's own bytes (its span), or the whole file's for a one-entry file without one. */
export function rawOf(e: Entry, read: EntryFileRead): Buffer | null {
  if (e.span) {
    const start = e.span.start - read.from;
    const end = Math.min(e.span.end - read.from, start + MAX_RAW);
    if (start < 0 || end > read.bytes.length || end < start) return null;
    return Buffer.from(read.bytes.subarray(start, end));
  }
  if (read.whole && read.entries.length + read.problems.length === 1) return Buffer.from(read.bytes.subarray(0, MAX_RAW));
  return null;
}
