// The contract every protocol adapter fulfils. Adapters read and write files; they never touch
// SQLite. Ingest drives them; the journal stores what they return.
import type { Folder, MessageDetail, Protocol, SourceHealth, Status } from "@/lib/model";
import type { ListOptions } from "./fs-safe";

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
   * thread; `onUnreadable` hears each folder there but unreadable (see fs-safe ListOptions).
   */
  list(opts?: Pick<ListOptions, "stat" | "onListed" | "onDir" | "sync" | "onUnreadable">): Promise<FoundFile[]>;
  /** Every agent with a queue or inbox, even an empty one; throws when the folder that holds them cannot be read. */
  agents(): Promise<string[]>;
  /** Where a root-relative path sits, or null when it is not a message location. */
  place(relPath: string): Placement | null;
  /**
   * When the protocol's file name says the file was written (ms), or null when it does not say:
   * a first scan reads the newest first by it, since it costs no stat (see lib/ingest/newest-first.ts).
   */
  nameTimeMs?(relPath: string): number | null;
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
  /** The workspace's log files, by name. */
  logs?(): Promise<LogFile[]>;
  /** A slice of one log (see LogSlice); null for a name that is not one of its logs. */
  readLog?(name: string, from: number, maxBytes: number): Promise<LogSlice | null>;
}

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
