// The message model shared by every layer (docs/API.md "Message summary").
// Pure types and zod schemas: safe to import from client components.
import { z } from "zod";

export const PROTOCOLS = ["ignite", "ignite-yaml", "shogun", "workflow", "kicklang"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const FOLDERS = ["queue", "processed", "dead_letter", "inbox", "archive", "channel"] as const;
export type Folder = (typeof FOLDERS)[number];

export const STATUSES = [
  "queued",
  "retrying",
  "processing",
  "delivered",
  "completed",
  "dead",
  "discarded",
  "unread",
  "read",
  "acked",
  "invalid",
] as const;
export type Status = (typeof STATUSES)[number];

/** Names of agents and types (docs/DESIGN.md "Safety rules"). */
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
  folder: z.enum(FOLDERS),
  path: z.string().nullable(),
  status: z.enum(STATUSES),
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
  detail: z.string(),
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
}

export interface MessagePage {
  items: MessageSummary[];
  nextCursor: string | null;
  seq: number;
  /** On a poll (`since`): keys that changed but no longer match the query. */
  removed?: string[];
  /** On a poll: more changed after `seq` than this answer held; the next poll goes on from `seq`. */
  more?: boolean;
}

export interface AgentStats {
  source: string;
  agent: string;
  queued: number;
  processing: number;
  delivered: number;
  retrying: number;
  dead: number;
  stuck: number;
  oldestQueuedAt: string | null;
  lastActivityAt: string | null;
  /** The earliest Next-Retry-After of the agent's retrying messages (ISO 8601 UTC), if any. */
  nextRetryAt: string | null;
}

export interface Stats {
  seq: number;
  totals: { messages: number } & Partial<Record<Status, number>>;
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

export interface ApiErrorBody {
  error: { code: string; message: string };
}
