// What a wave-2 detector finds in a workspace root, and where a file sits in that layout. Pure
// types, shared by the ignite-yaml, shogun, workflow and kicklang adapters.
import type { Protocol, SourceHealth } from "@/lib/model";
import type { Entry, FileRead, StatusDefinition } from "./entries";
import type { DeadLetterFacts } from "./types";
import type { LogFile, LogSlice } from "./types";

export interface Layout {
  protocol: Protocol;
  /** The workspace root, absolute. Every relPath is relative to it. */
  root: string;
  /** Absolute folders to watch (shogun's linked inbox may lie outside the root). */
  watchDirs: string[];
  /**
   * The one kind of link a layout follows (shogun's `queue/inbox`): files under `dir` (its real
   * location, outside the root or not) are known by paths under `relPath`.
   */
  links?: { relPath: string; dir: string }[];
}

/** What a file is in its protocol: the core reads inbox, archive, command, task, report, channel and ack files as entries. */
export type FileRole = "inbox" | "archive" | "command" | "task" | "report" | "channel" | "ack" | "heartbeat" | "registry" | "log";

export interface Place {
  /** Whose queue, inbox or channel it is (a KickLang channel name for a channel file). */
  agent: string;
  /** The protocol's own word for where it sits: queue, processed, dead_letter, inbox, archive, channel, … */
  folder: string;
  role: FileRole;
}

/** Everything a wave-2 reader may be told about a read; each protocol uses the fields it needs. */
export interface ReadContext {
  /** Where the bytes start in the file: the previous read's `consumed` (append-only files). */
  offset?: number;
  /** The file's mtime (IGNITE v2 times a processed file without `processed_at` from it). */
  mtimeMs?: number;
  /** Minutes east of UTC for times written without an offset (shogun); default: the server's. */
  utcOffsetMinutes?: number;
  processingTimeoutMs?: number;
  ackDueMs?: number;
  answerDueMs?: number;
}

/** One protocol's read side, as the core calls it: detect a root, place a path, read a file, settle statuses. */
export interface ProtocolReadSide<L extends Layout = Layout> {
  protocol: Protocol;
  detect(root: string): Promise<L | null>;
  place(relPath: string): Place | null;
  /** Whether a placed file only grows: read it from the last `consumed` offset, not whole. */
  appendOnly(place: Place): boolean;
  /**
   * Whether a placed file of no bytes, read whole, holds no entries once it has stayed so a while
   * (absent: no). Else it is taken for one caught between its writer's truncate and write (IGNITE
   * v2's), and left until it changes.
   */
  emptyMeansNone?(place: Place): boolean;
  /**
   * The reader's version (absent: 0). Raise it when `read` comes to make something else of the same
   * bytes: files an older version read are read again from their start at the next scan.
   */
  readerVersion?: number;
  read(relPath: string, bytes: Uint8Array, context?: ReadContext): FileRead;
  statuses: readonly StatusDefinition[];
  /** A dead letter's facts from its body, for the dead-letters list (protocols with dead letters). */
  deadLetterFacts?(body: string): DeadLetterFacts;
  /** Statuses and threads that depend on other entries, settled over all of a source's entries. */
  resolve(entries: readonly Entry[]): Entry[];
  /**
   * Whether `resolve` settles an entry from what it names, up its chain, and from whether anything
   * names it, never from which or how many entries do: the entries a change names are then settled
   * without reading everything else that names them.
   */
  settlesByAnyReferrer?: boolean;
  /** What the workspace's own state files say about its liveness at `nowMs` (absent: the protocol keeps none). */
  health?(layout: L, nowMs: number): Promise<SourceHealth>;
  /** The workspace's log files, by name (a name is one path part: it travels in a URL segment). */
  logs?(layout: L): Promise<LogFile[]>;
  /** Whole lines of one log (see LogSlice); null for a name that is not one of its logs or a log that is gone. */
  readLog?(layout: L, name: string, from: number, maxBytes: number): Promise<LogSlice | null>;
  /** Files the agents keep for people to read (shogun's dashboard.md); the core reads one, bounded, from one safe open. */
  documents?(layout: L): Promise<SourceDocument[]>;
}

/** A document of a workspace: its name (one path part) and where it is, relative to the root. */
export interface SourceDocument {
  name: string;
  relPath: string;
}
