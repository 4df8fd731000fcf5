import "server-only";
import type { DeletedFile, EntryFileRead } from "@/lib/journal/entry-writer";
import type { EntryReadAhead } from "./entry-read-ahead";
import type { OrderedFile } from "./entry-order";
import type { EntrySource } from "./entry-plan";

// What an entry scan journals in one commit (see EntryIngest.journal), and how big that may be.

/**
 * Journaled per transaction at most: a first scan of 20,000 small files is a few commits, not
 * 20,000. Each holds the main thread (0.1-0.4 ms an entry): at 5,000 a commit was up to 2 s of it,
 * and 2,000 cost no more CPU over 20,000 entries of each protocol (noisy runs, a loaded machine).
 */
export const BATCH_ENTRIES = 2_000;
const BATCH_BYTES = 16 * 1024 * 1024;
/** A scan's first commit is smaller, so its newest files (read first) are in soon; so is every commit of a start's first turn (see load). */
export const FIRST_BATCH_ENTRIES = 1_000;
/**
 * A scan reads a channel this much at a time (each chunk's entries join the batch before it is
 * committed): ~900 values of ~300 bytes. Read in one 16 MB chunk (APPEND_CHUNK), a 2.9 MB
 * channel was one commit of 10,000 entries that held the main thread for 1.9 s.
 */
export const SCAN_CHUNK_BYTES = 256 * 1024;

/** Entries per commit, and from what size a channel's tail is read first (tests make several commits of a small fixture with them). */
export interface BatchLimits {
  first: number;
  rest: number;
  tailBytes: number;
  /** How much of a channel a scan reads at a time (SCAN_CHUNK_BYTES). */
  chunkBytes?: number;
  /** From how many files to read a load reads them ahead on a worker (READ_AHEAD_FROM_FILES). */
  readAheadFiles?: number;
  /** A load that reads here warms the files ahead of it from a cold disk (a lane's, see warm-ahead.ts). */
  warmAhead?: boolean;
}

export class Batch {
  /** Reads and files gone, by source: each source's are one transaction. */
  readonly sources = new Map<string, { source: EntrySource; reads: EntryFileRead[]; deleted: DeletedFile[] }>();
  private entries = 0;
  private bytes = 0;

  constructor(private readonly maxEntries: number) {}

  of(source: EntrySource) {
    let held = this.sources.get(source.id);
    if (!held) this.sources.set(source.id, (held = { source, reads: [], deleted: [] }));
    return held;
  }

  add(source: EntrySource, read: EntryFileRead): void {
    this.of(source).reads.push(read);
    this.entries += read.entries.length + read.problems.length;
    this.bytes += read.bytes.length;
  }

  get full(): boolean {
    return this.entries >= this.maxEntries || this.bytes >= BATCH_BYTES;
  }
}

/** How EntryIngest.journal goes through a load's files: its commits' sizes, its reads, its turns and what it hears. */
export interface JournalRun {
  firstBatch: number;
  restBatch: number;
  /** How each part is read (a channel this much at a time). */
  reads: EntryReadAhead;
  pause: () => Promise<void>;
  stopped: () => boolean;
  committed: (files: number) => void;
  /** A part to read later (the rest of a file whose tail was read), placed after the first `after` parts. */
  later: (part: OrderedFile<EntrySource>, after: number) => void;
  /** Whether the source's batches take the first-fill path (see EntryIngest.load). */
  firstFill: (source: EntrySource) => boolean;
  /** Hold problems about absent entries back (see EntryWriter.apply): the entry may still be read. */
  holdAbsent: boolean;
}
