// The message model shared by every layer (docs/API.md "Message summary").
// Pure types and zod schemas: safe to import from client components.
import { z } from "zod";
import type { ActionCheck, ActionDescriptor } from "@/lib/protocols/actions";

export const PROTOCOLS = ["ignite", "ignite-yaml", "shogun", "workflow", "kicklang"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * A folder or status word: each protocol has its own (lib/protocols/catalog.ts lists them), so the
 * core holds them as words. Lower-case ASCII and short, as every protocol's are; the schema
 * below holds a summary to that.
 */
export const WORD_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export type Folder = string;
export type Status = string;

/**
 * The contract's word for the dead-letter area: where a protocol keeps a message it gave up on,
 * wrapped in a letter. Each adapter maps its own dead-letter folder to this word (its Placement),
 * so the journal finds dead letters by it without knowing any protocol's layout.
 */
export const DEAD_LETTER_FOLDER: Folder = "dead_letter";

/** Names of agents and types (docs/DESIGN.md "Safety rules"). */
/**
 * Longer than any name a layout gives an agent (a path segment, a KickLang channel): the bound an
 * agent named in an address or a query is held to. Not NAME_PATTERN: a channel is no queue name.
 */
export const MAX_AGENT_NAME = 1024;

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export const messageSummarySchema = z.object({
  key: z.string().regex(KEY_PATTERN),
  source: z.string(),
  protocol: z.enum(PROTOCOLS),
  messageId: z.string().nullable(),
  from: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  type: z.string().nullable(),
  priority: z.string().nullable(),
  threadId: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  correlationId: z.string().nullable(),
  repository: z.string().nullable(),
  issue: z.string().nullable(),
  date: z.string().nullable(),
  agent: z.string(),
  folder: z.string().regex(WORD_PATTERN),
  path: z.string().nullable(),
  status: z.string().regex(WORD_PATTERN),
  /** The status exactly as the file states it (e.g. `dead_letter`, `error`), or null. */
  rawStatus: z.string().nullable(),
  stuck: z.boolean(),
  retryCount: z.number().int().nonnegative(),
  /** When a retrying message may be picked up again (ISO 8601 UTC), if the file says. */
  nextRetryAt: z.string().nullable(),
  problems: z.array(z.string()),
  /** Another file holding the same Message-ID exists at the same time. */
  duplicate: z.boolean(),
  /** For a dead letter: the key of the message it holds. */
  deadLetterOf: z.string().nullable(),
  /** First characters of the body, one line, for lists. */
  preview: z.string(),
  size: z.number().int().nonnegative(),
  /** Last time the file changed (mtime) or the journal saw it go (ISO 8601 UTC). */
  updatedAt: z.string(),
  /** Where lists put it, newest first (ms since the epoch): its Date, or when it was first seen if it has none. */
  sortMs: z.number().int(),
  seq: z.number().int().nonnegative(),
});
export type MessageSummary = z.infer<typeof messageSummarySchema>;

export const historyEventSchema = z.object({
  at: z.string(),
  kind: z.string(),
  /** For a person: what happened, in words. */
  detail: z.string(),
  /** For code: the event's facts (a move's from and to, a status's from and to), when journaled with them. */
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type HistoryEvent = z.infer<typeof historyEventSchema>;

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export interface MessageDetail extends MessageSummary {
  headers: [string, string][];
  body: string;
  data: YamlValue | null;
  /** IGNITE only: the reference tool's `parse` JSON. */
  ignite: Record<string, string | string[]> | null;
  history: HistoryEvent[];
  /** For a dead letter: the queue its message was in when it failed, as the journal saw it (null: unknown). */
  heldAgent?: string | null;
  /** For a message a dead letter on disk holds: that letter's key (null: none, or more than one). */
  heldBy?: string | null;
  /** What can be done to it, as the server decides (lib/protocols/actions.ts): the UI offers exactly these. */
  actions: ActionDescriptor[];
  /** Sent back with an action, so a message changed since the page loaded is a 409. */
  actionCheck: ActionCheck;
}

export interface MessagePage {
  items: MessageSummary[];
  nextCursor: string | null;
  seq: number;
  /** On a poll (`since`): keys that changed but no longer match the query. */
  removed?: string[];
  /** On a poll: more changed after `seq` than this answer held; the next poll goes on from `seq`. */
  more?: boolean;
  /** While a first scan is still loading: the answer covers only what is loaded so far. */
  loading?: PageLoading;
}

/** How far a first scan is: files journaled of those listed, and down to when the newest are all there. */
export interface PageLoading {
  loaded: number;
  total: number;
  /** Every message dated after this (ISO 8601) is loaded; null while that cannot be said yet. */
  completeAfter: string | null;
}

/**
 * The counts AgentStats also carries as fields of their own: IGNITE's overview columns (its
 * catalog's `columns`), kept for the views and API clients built on them.
 */
export const NAMED_COUNTS = ["queued", "processing", "delivered", "retrying", "dead"] as const;

/**
 * One agent (an IGNITE queue, a shogun inbox, a workflow or KickLang channel owner) of one source.
 * `counts` holds its protocol's own status words; the IGNITE fields below are the same counts read
 * by IGNITE's words (0 for a protocol without them), kept for the views built on them.
 */
export interface AgentStats {
  source: string;
  /** The source's protocol: which catalog names the statuses in `counts`. */
  protocol: Protocol;
  agent: string;
  /** Messages (entries) by status, dead letters apart; only the statuses the agent has (each > 0). */
  counts: Record<string, number>;
  queued: number;
  processing: number;
  delivered: number;
  retrying: number;
  dead: number;
  /** Past their due time: IGNITE's stuck (processing past the timeout), other protocols' overdue (an ack, an answer). */
  stuck: number;
  /**
   * Messages still waiting for the agent (its protocol's waiting statuses), on disk: an entry gone
   * from its files (a task file overwritten, a channel truncated) waits for no one, whatever its last status.
   */
  waiting: number;
  /** IGNITE (v3, v2): its oldest queued or retrying message; other protocols: its oldest open entry. Only those `waiting` counts. */
  oldestQueuedAt: string | null;
  lastActivityAt: string | null;
  /** The earliest Next-Retry-After of the agent's retrying messages (ISO 8601 UTC), if any. */
  nextRetryAt: string | null;
}

export interface Stats {
  seq: number;
  /**
   * Messages by status. `dead` counts the messages that died (each agent's Dead column, summed);
   * `deadLetters` the dead letters holding them, files in dead_letter/ whose status is dead too.
   */
  totals: { messages: number; deadLetters?: number } & Partial<Record<Status, number>>;
  agents: AgentStats[];
}

export interface SourceInfo {
  id: string;
  protocol: Protocol;
  root: string;
  agents: string[];
  /** First-scan progress; `fullText` once body search uses the index (it is built after listing). */
  indexing: { done: boolean; files: number; total: number; fullText: boolean };
  /** Why the source cannot be read right now (e.g. the root is gone), or null. */
  error: string | null;
}

/**
 * Why the journal (the SQLite file under MAILROOM_DATA) cannot be used as it should, in words an
 * operator can act on: shown on every page and by GET /api/health.
 */
export interface JournalProblem {
  /** journal_full, journal_readonly, journal_busy, journal_unopenable, journal_io, journal_corrupt, journal_version, journal_moved_aside. */
  code: string;
  /** The file concerned (the journal, or the copy moved aside). */
  file: string;
  /** What is wrong, and what still works. */
  message: string;
  /** What to do about it. */
  action: string;
}

export interface ApiErrorBody {
  error: { code: string; message: string };
}

/** A workspace's own account of whether its agents' system runs (what its state files say). */
export interface SourceHealth {
  /** The process that delivers and retries messages (IGNITE: the queue monitor), or null when the protocol has none. */
  monitor: { alive: boolean; lastBeatAt: string | null; problem: string | null } | null;
  /** Each agent as the system's health record names it; `health` is its own word (healthy, stale, …). */
  agents: { name: string; health: string; detail: string | null }[];
  session: { name: string | null; startedAt: string | null } | null;
}

export interface SourceHealthItem {
  source: string;
  health: SourceHealth | null;
}
