// Threads: the shapes of GET /api/threads and GET /api/threads/{id} (docs/API.md).
// Pure types and zod schemas: safe to import from client components.
import { z } from "zod";
import { messageSummarySchema, PROTOCOLS, WORD_PATTERN } from "@/lib/model";

export const THREAD_KINDS = ["header", "inferred"] as const;
export type ThreadKind = (typeof THREAD_KINDS)[number];

/**
 * A thread id: the thread id a header thread's files state (any text a file holds, so any length and
 * any character), or an inferred id (`issue-<repo>-<issue>`, `task-<task_id>`). Links write it
 * with threadIdSegment (lib/threads/ids.ts).
 */
export const threadIdSchema = z.string().min(1, "a thread id is not empty");

export const threadSummarySchema = z.object({
  id: threadIdSchema,
  kind: z.enum(THREAD_KINDS),
  count: z.number().int().nonnegative(),
  /** Everyone who sent or holds a message of the thread, sorted. */
  agents: z.array(z.string()),
  /** The protocols its messages speak (nearly always one), in PROTOCOLS order. */
  protocols: z.array(z.enum(PROTOCOLS)),
  first: z.string().nullable(),
  last: z.string().nullable(),
  /** Messages per status. */
  statuses: z.partialRecord(z.string().regex(WORD_PATTERN), z.number().int().positive()),
  /** Messages processing longer than the timeout (not a status of its own). */
  stuck: z.number().int().nonnegative(),
});
export type ThreadSummary = z.infer<typeof threadSummarySchema>;

export interface ThreadList {
  items: ThreadSummary[];
  /** The journal's change counter when the list was made. */
  seq: number;
  /** Threads that matched before `limit` cut the list. */
  total: number;
  /** What the list was made from, for a poll's ETag: the seq, and the times a relative date (`after:-1h`) stood for. */
  version: string;
}

/**
 * reply: In-Reply-To parent → child. next: a message with no parent in the thread, from the
 * latest earlier message its sender sent or received (else the previous one in time).
 */
export const THREAD_EDGE_KINDS = ["reply", "next"] as const;
export const threadEdgeSchema = z.object({ from: z.string(), to: z.string(), kind: z.enum(THREAD_EDGE_KINDS) });
export type ThreadEdge = z.infer<typeof threadEdgeSchema>;

/** Side branches: an original → its dead letter, and a dead letter → the message requeued from it. */
export const threadBranchSchema = z.object({ from: z.string(), to: z.string(), kind: z.enum(["dead-letter", "requeue"]) });
export type ThreadBranch = z.infer<typeof threadBranchSchema>;

/** A parent named by In-Reply-To that is not in the thread: a placeholder node `missing:<Message-ID>`. */
export const missingParentSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  /** The journaled message with that Message-ID when it exists outside this thread, else null. */
  key: z.string().nullable(),
});
export type MissingParent = z.infer<typeof missingParentSchema>;

export const threadDetailSchema = z.object({
  id: threadIdSchema,
  kind: z.enum(THREAD_KINDS),
  messages: z.array(messageSummarySchema),
  edges: z.array(threadEdgeSchema),
  branches: z.array(threadBranchSchema),
  missing: z.array(missingParentSchema),
  seq: z.number().int().nonnegative(),
});
export type ThreadDetail = z.infer<typeof threadDetailSchema>;

export const EXPORT_FORMATS = ["json", "md", "zip"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Placeholder node id for a parent that is not in the thread. */
export function missingNodeId(messageId: string): string {
  return `missing:${messageId}`;
}

/**
 * A validator for GET /api/threads/{id}: changes when a message joins or leaves the thread or any
 * of its messages changes (each change bumps that message's seq), not when other threads move.
 */
export function threadEtag(t: Pick<ThreadDetail, "messages">): string {
  let max = 0;
  for (const m of t.messages) if (m.seq > max) max = m.seq;
  return `W/"${t.messages.length}-${max}"`;
}
