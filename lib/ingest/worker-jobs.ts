// The jobs ingest's worker threads take (worker.ts runs them, workers.ts hands them out), and
// their answers: plain data that crosses threads. Pure types.
import type { BulkTarget } from "@/lib/journal/bulk";
import type { LaneSeed } from "@/lib/journal/lane";
import type { Protocol } from "@/lib/model";
import type { FoundFile } from "@/lib/protocols";
import type { Layout, ReadContext } from "@/lib/protocols/layout";
import type { EntrySourceFile, FileChunk, ReadPlan } from "./entry-files";
import type { UnreadableDir } from "./listing";
import type { PackedListing } from "./packed";
import type { PreparedFile } from "./sync";

export interface LoadJob {
  kind: "load";
  id: number;
  source: { id: string; protocol: Protocol; root: string };
  files: FoundFile[];
  target: BulkTarget;
  /** One Int32 shared by a load's workers: 1 while one of them writes (SQLite has one writer). */
  writeLock: SharedArrayBuffer;
}

export type LoadResult =
  | { id: number; loaded: number; deadLetters: PreparedFile[]; failed: { relPath: string; error: string }[] }
  | { id: number; error: string };

export interface DiffJob {
  kind: "diff";
  id: number;
  source: { id: string; protocol: Protocol; root: string };
  journalFile: string;
  /**
   * When set, each folder is told (ListingDir) before it is read, and read once the main thread
   * has counted it off here (after its callback, which watches the folder), so nothing written in
   * between is missed.
   */
  dirsAcked: SharedArrayBuffer | null;
  /** How long to wait for each count; past that the job lists without waiting (and says so). */
  dirAckWaitMs: number;
}

/** The tree as a rescan found it, as far as it differs from the journal. */
export interface TreeDiff {
  files: number;
  /** null when the folder that holds them could not be read. */
  agents: string[] | null;
  /** Listed files that are new or not as journaled, with their stats. */
  changed: FoundFile[];
  /** Journaled as on disk, but not listed (and not in a folder that could not be read). */
  missing: string[];
  /** Folders the listing could not read. */
  unreadable: UnreadableDir[];
  /** The folders listed: those to watch. */
  dirs: string[];
  /** The main thread did not count a folder off in time, so the job stopped waiting for it. */
  dirAcksLapsed: boolean;
}

export type DiffResult = ({ id: number } & TreeDiff) | { id: number; error: string };

/** Sent while a diff lists the tree (when asked): a folder it is about to read, for the main thread to watch. */
export interface ListingDir {
  id: number;
  listingDir: string;
  /** The job's dirsAcked, for the main thread to count the folder off (even once the job is gone). */
  acked: SharedArrayBuffer;
}

/** One chunk of the full-text index's fill (fulltext.ts): the main thread hands them out in ingest's turns. */
export interface FullTextJob {
  kind: "fulltext";
  id: number;
  journalFile: string;
  fromId: number;
  toId: number;
}

export type FullTextResult = { id: number; filled: true } | { id: number; error: string };

/**
 * A first scan's listing of a big tree, one share of it a worker (see ListOptions.share), packed
 * with the files' name times; each folder told before it is read, as a diff's (see DiffJob). The
 * share's newest files come first (ListingWalked), the packed listing after them.
 */
export interface ListJob {
  kind: "list";
  id: number;
  source: { id: string; protocol: Protocol; root: string };
  share: { part: number; of: number };
  dirsAcked: SharedArrayBuffer;
  dirAckWaitMs: number;
  /** How many of the share's newest files (newestFirst's order) to send ahead of the listing. */
  newest: number;
}

/** A share's newest files, in newestFirst's order: their places in the share's packed listing, the files, their name times (NaN: none). */
export interface NewestOfShare {
  at: number[];
  files: FoundFile[];
  times: number[];
}

/** A share as its walk found it, sent as soon as the walk is done, before its listing is packed and handed over. */
export interface WalkedShare {
  /** Files in the share. */
  count: number;
  newest: NewestOfShare;
  unreadable: UnreadableDir[];
  dirs: string[];
  dirAcksLapsed: boolean;
}

/** Sent by a list job once its share is walked (see WalkedShare). */
export interface ListingWalked {
  id: number;
  walked: WalkedShare;
}

export type ListResult = { id: number; listing: PackedListing } | { id: number; error: string };

/** The newest-first order of a load's files by their name times (see orderNewestFirst). */
export interface OrderJob {
  kind: "order";
  id: number;
  times: Float64Array;
}

export type OrderResult = { id: number; order: Uint32Array } | { id: number; error: string };

/** Entry files a load will journal soon, read ahead as it would read them (see entry-read-ahead.ts), each from its start. */
export interface ReadEntriesJob {
  kind: "readEntries";
  id: number;
  /** The layouts the files are placed in; each protocol's read side is this thread's own. */
  layouts: Layout[];
  files: { layout: number; file: EntrySourceFile }[];
  context: ReadContext;
  chunkBytes: number;
  /** A file found bigger than this when read (it grew since it was listed) is not read here: the load reads it as it journals it. */
  maxBytes: number;
}

/** One file read ahead: its chunks as readEntryFile handed them on, or why it was not read (refused: as a load passes over it). */
export type FileReadAhead = { chunks: { chunk: FileChunk; plan: ReadPlan }[] } | { refused: true } | { failed: string };

export type ReadEntriesResult = { id: number; read: FileReadAhead[] } | { id: number; error: string };

/** A start's first fill of some entry sources, gone on with in a journal file of its own (see entry-lanes.ts). */
export interface FillLaneJob {
  kind: "fillLane";
  id: number;
  journalFile: string;
  /** Where the lane's journal goes (nothing may be there). */
  laneFile: string;
  /** Each source with its tree as the start's first turn listed it. */
  sources: { id: string; layout: Layout; files: EntrySourceFile[]; dirs: string[] }[];
  context: ReadContext;
}

export type FillLaneResult = { id: number; lane: { seed: LaneSeed; changed: number } } | { id: number; error: string };

/** A filled lane merged into the journal by a worker's own connection (see mergeLane), so no request waits on it. */
export interface MergeLaneJob {
  kind: "mergeLane";
  id: number;
  journalFile: string;
  laneFile: string;
  seed: LaneSeed;
}

export type MergeLaneResult = { id: number; merged: number } | { id: number; error: string };

export type Job = LoadJob | DiffJob | FullTextJob | ListJob | OrderJob | ReadEntriesJob | FillLaneJob | MergeLaneJob;
export type JobResult = LoadResult | DiffResult | FullTextResult | ListResult | OrderResult | ReadEntriesResult | FillLaneResult | MergeLaneResult;
