// The contract every protocol adapter fulfils. Adapters read and write files; they never touch
// SQLite. Ingest drives them; the journal stores what they return.
import type { Folder, MessageDetail, Protocol, SourceHealth, Status } from "@/lib/model";
import type { ActionId } from "./actions";
import type { OwnCompose } from "./compose-types";
import type { ListOptions } from "./fs-safe";

// What each protocol tells the core and the UI about its words (its catalog), and the lookups
// over them: plain data and pure functions, safe for client code.
export type { FileLifecycle, HopDefinition, HopPoint, ProtocolCatalog, StatusTone } from "./catalog-types";
export { STATUS_TONES } from "./catalog-types";
export type { StatusDefinition } from "./entries";
export type { Vocabulary } from "./vocabulary";
export type { ComposedFile, ComposeMessage, ComposePlan, ComposeTarget, ComposeVocabulary, OwnCompose, ReplyOriginal, ReplyPlan } from "./compose-types";

/** Files larger than this are journaled by headers only (docs/DESIGN.md "Safety rules"). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** One entry found under a source's watched tree. */
export interface FoundFile {
  /** Relative to the workspace root (the MAILROOM_ROOT entry), with "/" separators. */
  relPath: string;
  kind: "file" | "symlink" | "directory" | "other";
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Where a path sits in the protocol's layout. */
export interface Placement {
  agent: string;
  folder: Folder;
}

/** What an adapter makes of one file: the summary fields it owns. */
export interface ParsedMessage {
  messageId: string | null;
  from: string | null;
  to: string[];
  cc: string[];
  type: string | null;
  priority: string | null;
  threadId: string | null;
  inReplyTo: string | null;
  correlationId: string | null;
  repository: string | null;
  issue: string | null;
  /** ISO 8601 UTC, or null when missing or unparseable. */
  date: string | null;
  rawStatus: string | null;
  status: Status;
  retryCount: number;
  nextRetryAt: string | null;
  /** Decoded body text ("" when not read). */
  body: string;
  problems: string[];
  /** Set when the file is a dead letter holding another message. */
  deadLetter: DeadLetterInfo | null;
}

export interface DeadLetterInfo {
  originalFile: string | null;
  /** The original message's own Message-ID, read from the embedded copy. */
  originalMessageId: string | null;
  /** The queue it was bound for: the original's `To:`. */
  originalAgent: string | null;
  /** The embedded original file, exactly as text. */
  originalText: string | null;
  retryCount: number | null;
  lastError: string | null;
  /** When the monitor gave up (ISO 8601 UTC), else the dead letter's own date. */
  movedAt: string | null;
}

export type DetailFields = Pick<MessageDetail, "headers" | "body" | "data" | "ignite">;

/** What the dead-letters list shows of a dead letter, from its own bytes (null: the letter does not say). */
export interface DeadLetterFacts {
  /** The original's own file name (`original_file`). */
  originalFile: string | null;
  /** The queue it was bound for: the original's To. */
  originalTo: string | null;
  originalType: string | null;
  originalFrom: string | null;
  threadId: string | null;
  retryCount: number | null;
  lastError: string | null;
  movedAt: string | null;
}

export interface ProtocolAdapter {
  protocol: Protocol;
  /** A reader bound to `root` (absolute), or null when the root holds nothing of this protocol. */
  open(root: string): Promise<SourceReader | null>;
  /** The full view of one message from its exact bytes (no root needed). */
  describe(bytes: Buffer, opts?: DescribeOptions): Promise<DetailFields>;
  /** A dead letter's facts from its body, for the dead-letters list. */
  deadLetterFacts?(body: string): DeadLetterFacts;
  /** Its own compose (lib/operations/compose.ts checks the request, journals what was sent). */
  compose?: OwnCompose;
  /** The operator's actions on a message's own file (lib/operations finds the file by key and journals the action). */
  fileActions?: FileActions;
}

/** A message's own file, found by its key and checked to be still where the page showed it. */
export interface FileActionTarget {
  /** The workspace root as configured. */
  root: string;
  relPath: string;
  /** Absolute, resolved inside the root for writing. */
  abs: string;
  folder: Folder;
  status: Status;
  agent: string;
  /** For a dead letter: the queue its original failed in, as the journal saw it (null: not known). */
  heldAgent: string | null;
}

/** A checked action on a file: what it will do; nothing is written before `run`. */
export interface FileActionPlan {
  description: string;
  /** Root-relative path of the message after the action. */
  path: string;
  /** Root-relative paths the write creates. */
  touched: string[];
  /** Where the file acted on went, when the message itself went elsewhere (a requeued dead letter, archived). */
  archived?: string;
  /** Writes; resolves to what the history adds to the move ("" for nothing). */
  run(): Promise<string>;
}

export interface FileActions {
  plan(id: ActionId, target: FileActionTarget, input: { to?: string; body?: string }): Promise<FileActionPlan>;
  /** Where a discard puts the file; null when it is not in a queue. */
  archivePathOf(relPath: string): string | null;
  /** Where a discarded file came from; null when it is not in the archive. */
  unarchivePathOf(relPath: string): string | null;
}

export interface DescribeOptions {
  /** `bytes` is only the head of a file too big to keep: read its headers, not its body. */
  headOnly?: boolean;
}

/** One protocol's view of one workspace root. */
export interface SourceReader {
  protocol: Protocol;
  /** The workspace root, absolute. Every relPath is relative to it. */
  root: string;
  /** Absolute folders to watch (they may not all exist yet). */
  watchDirs: string[];
  /**
   * Every message location under the watched folders (never following symlinks); `stat: false`
   * lists regular files without stats, `onListed` hears how many files were just added as the
   * listing goes, and `onDir` each folder just before it is read; `sync` blocks, for a worker
   * thread; `onUnreadable` hears each folder there but unreadable; `share` lists one share of the
   * tree, for several threads; `plainFiles` hears regular files by folder and name instead (see fs-safe ListOptions).
   */
  list(opts?: Pick<ListOptions, "stat" | "onListed" | "onDir" | "sync" | "onUnreadable" | "share" | "plainFiles">): Promise<FoundFile[]>;
  /** Every agent with a queue or inbox, even an empty one; throws when the folder that holds them cannot be read. */
  agents(): Promise<string[]>;
  /** Where a root-relative path sits, or null when it is not a message location. */
  place(relPath: string): Placement | null;
  /**
   * When a file's bare name says it was written (ms), or null: a first scan reads the newest first by
   * it, costing no stat (lib/ingest/newest-first.ts), nor a join of folder and name (200–300 ms a share at 1M).
   */
  nameTimeMs?(name: string): number | null;
  /** Parse one file. `bytes` is null when the file was not read (oversized, symlink, directory). */
  parse(input: { relPath: string; placement: Placement; bytes: Buffer | null; found: FoundFile }): Promise<ParsedMessage>;
  /** The full view of one message from its exact bytes. */
  describe(bytes: Buffer, opts?: DescribeOptions): Promise<DetailFields>;
  /**
   * How long an entry may stay in processing before it counts as stuck, as the workspace's own
   * settings say (null: they say nothing; Mailroom's default applies).
   */
  processingTimeoutMs?(): Promise<number | null>;
  /** What the workspace's own state files say about its liveness at `nowMs`. */
  health?(nowMs: number): Promise<SourceHealth>;
  /** For each agent a message written now may never be read by, why (e.g. no one scans its queue). */
  deliveryWarnings?(agents: readonly string[]): Promise<Map<string, string>>;
  /**
   * Where a dead letter's original lived before it failed, and its status while `letter` holds it:
   * ingest journals the original from the copy inside when its own file was never seen (null: the
   * letter does not say enough; absent: the protocol keeps no copies in its letters).
   */
  deadLetterOriginal?(letter: { relPath: string; placement: Placement; status?: string }, dl: DeadLetterInfo): DeadLetterOriginal | null;
  /**
   * The file this one replaces in place, whose message it continues whether or not the old file is
   * gone yet (IGNITE: the v2 `.yaml` its queue monitor converts into this `.mime`); null: none.
   */
  replacedPath?(relPath: string): string | null;
  /** Which lifecycle step took a message from one observation to the next (null: a plain move). */
  lifecycleStep?(before: ObservedPlace, after: ObservedPlace): LifecycleStep | null;
  /** The workspace's log files, by name. */
  logs?(): Promise<LogFile[]>;
  /** A slice of one log (see LogSlice); null for a name that is not one of its logs. */
  readLog?(name: string, from: number, maxBytes: number): Promise<LogSlice | null>;
}

/** A dead letter's original, as its protocol places it (SourceReader.deadLetterOriginal). */
export interface DeadLetterOriginal {
  /** Root-relative, where the original's file was. */
  relPath: string;
  placement: Placement;
  /** What it is while the letter holds it: e.g. dead, or discarded once an operator archived the letter. */
  status: Status;
}

/** A message as the journal last saw it, or as it is now: where its file is and what it says. */
export interface ObservedPlace {
  path: string | null;
  folder: Folder;
  status: Status;
  retryCount: number;
}

/**
 * The lifecycle steps the journal names besides a plain move (its event kinds). `how`: the
 * protocol's own words for what did a conversion ("from … to … by …").
 */
export type LifecycleStep =
  | { kind: "converted"; how: string }
  | { kind: "discarded" | "restored" | "requeued" | "retried" };

export interface LogFile {
  name: string;
  size: number;
  mtimeMs: number;
}

/** Whole lines of a log: bytes [from, to) of a file now `size` bytes long, as text (colour codes kept). */
export interface LogSlice {
  text: string;
  from: number;
  to: number;
  size: number;
}
