// The protocol-neutral contract of wave 2 (DESIGN "Many protocols, one core"): an adapter reads one
// file into zero or more entries, and the core journals entries by (source, path, locator) without
// knowing any protocol's folders, headers or statuses. Pure types: safe for client code too.
import type { YamlValue } from "@/lib/model";
import type { StatusTone } from "./catalog-types";

/** Why an entry (or a whole file) could not be read fully, or which rule it breaks. It is still listed. */
export interface EntryProblem {
  /** Stable, machine-readable: `parse`, `limit`, `rule:<name>`, `truncated`, … */
  code: string;
  /** One sentence for a person, saying what is wrong and where. */
  message: string;
  /**
   * The id of the entry whose absence this problem is (a response's request, an ack's message). A
   * load reads the newest first, so until it has read everything the entry may still come: the
   * core holds such a problem back until then, and shows it only if the entry never came.
   */
  absent?: string;
}

/** A reference from one entry to another, resolved by the core (never by the UI). */
export interface EntryLink {
  /** holds: a dead letter holds its original · acks: an ack record → its message · replies: a reply → its request. */
  kind: "holds" | "acks" | "replies";
  /** The protocol's own id of the target (Message-ID, `msg_…`, an envelope id). */
  targetId: string;
  /** Extra facts the link carries (an ack's status and time, a dead letter's original file). */
  detail?: Record<string, string | number | boolean | null>;
}

/**
 * What an entry is. Messages are the timeline; documents (shogun commands, tasks, reports) sit in
 * their thread; acks only change their message's status; logs are the source's own log lines.
 */
export type EntryKind = "message" | "document" | "ack" | "log";

export interface Entry {
  kind: EntryKind;
  /**
   * Stable inside its file: the protocol's own id where it has one (shogun `msg_…`, workflow
   * `msg_…`, a KickLang `id`), else the entry's byte offset in decimal; "" for a one-message file.
   */
  locator: string;
  /** The entry's own bytes in its file ([start, end) byte offsets), or null for the whole file. */
  span: { start: number; end: number } | null;
  messageId: string | null;
  from: string | null;
  to: string[];
  type: string | null;
  priority: string | null;
  /** ISO 8601 UTC, or null when the entry has no time or it is unparseable. */
  date: string | null;
  /** Whose queue, inbox or channel holds it. */
  agent: string;
  /** Where it sits in the protocol's layout, in the protocol's own word (queue, processed, inbox, channel, …). */
  folder: string;
  /** The protocol's own status word (see each protocol's `statuses`). */
  status: string;
  /** The status exactly as the file states it, or null. */
  rawStatus: string | null;
  /** The thread this entry belongs to, as the protocol defines it (Thread-ID, cmd_NNN, task_id, correlation root). */
  threadKey: string | null;
  inReplyTo: string | null;
  correlationId: string | null;
  retryCount: number;
  /** Past this time (ISO 8601 UTC) the entry is overdue (a processing timeout, an ack due, an unanswered request). */
  dueAt: string | null;
  /** Text for full-text search and previews. */
  body: string;
  /**
   * What a list's preview shows where the body's first words would only repeat its columns (IGNITE
   * v2's file begins with its type, from and to): the message's own words. Absent: the body.
   */
  summary?: string;
  /** The parsed structure (YAML or JSON), or null. */
  data: YamlValue | null;
  links: EntryLink[];
  problems: EntryProblem[];
  /**
   * Set by the core when settling: no file holds the entry any more (deleted, trimmed, truncated).
   * What that makes of its status is the adapter's to say (its `resolve`).
   */
  gone?: boolean;
}

/** What reading one file (or the appended part of one) gives. */
export interface FileRead {
  entries: Entry[];
  /** Problems of the file as a whole (unparseable, over a limit). */
  problems: EntryProblem[];
  /**
   * For append-only streams: the byte offset up to which the file has been consumed. Bytes after
   * it are an incomplete last value (a write in progress) to read again when the file grows.
   * Whole-file readers return the file's length.
   */
  consumed: number;
  /**
   * A whole file none of which could be read as the protocol's (it does not parse: a writer
   * without the lock caught mid-write): the entries it held stay where they were, not gone.
   */
  unparsed?: boolean;
}

/** A status a protocol declares: its word, how the overview counts it, and whether it still needs someone. */
export interface StatusDefinition {
  id: string;
  label: string;
  /** open: someone still has to act (queued, unread, unacked, unanswered); done; failed (dead). */
  state: "open" | "done" | "failed";
  /** One sentence for a tooltip: what an entry with this status is waiting for, or what became of it. */
  help: string;
  /** Its badge colour. */
  tone: StatusTone;
  /** What a message in it was, said when a clean-up removed its file ("queued, never delivered"); absent: its word. */
  whenGone?: string;
}
