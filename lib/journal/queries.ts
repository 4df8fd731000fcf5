import "server-only";
import { z } from "zod";
import { historyEventSchema, type HistoryEvent, type MessagePage, type MessageSummary, type SourceInfo } from "@/lib/model";
import { PROTOCOLS } from "@/lib/model";
import type { Term } from "@/lib/query";
import { isoOf } from "@/lib/protocols/iso-time";
import type { Db } from "./db";
import { compileFilter } from "./filter";
import { fullTextReady } from "./fulltext";
import { SUMMARY_COLUMNS, summaryRows, toSummary } from "./rows";

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 100;

const cursorSchema = z.tuple([z.number().int(), z.string().regex(/^[A-Za-z0-9_-]+$/)]);

export class CursorError extends Error {}

export function encodeCursor(sortMs: number, key: string): string {
  return Buffer.from(JSON.stringify([sortMs, key])).toString("base64url");
}

export function decodeCursor(cursor: string): [number, string] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new CursorError("cursor is not one this server handed out: use the nextCursor of a previous page");
  }
}

export function currentSeq(db: Db): number {
  return (db.prepare("SELECT value FROM meta WHERE name = 'seq'").get() as { value: number }).value;
}

/** A page of the timeline, newest first (through an index already in that order, where one fits). */
export const pageSql = (where: string) => `SELECT ${SUMMARY_COLUMNS} FROM messages WHERE ${where} ORDER BY sort_ms DESC, key DESC LIMIT ?`;

/** One page, newest first; keyset paging stays stable while new messages arrive. */
export function queryPage(db: Db, terms: Term[], limit: number, cursor: string | null): MessagePage {
  const seq = currentSeq(db);
  const filter = compileFilter(terms, { fullText: fullTextReady(db) });
  const params = [...filter.params];
  let where = filter.where;
  if (cursor) {
    const [sortMs, key] = decodeCursor(cursor);
    where += " AND (sort_ms < ? OR (sort_ms = ? AND key < ?))";
    params.push(sortMs, sortMs, key);
  }
  const rows = summaryRows(db, pageSql(where), ...params, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > limit && last ? encodeCursor(last.sort_ms, last.key) : null,
    seq,
  };
}

/** A poll reads at most this many changes per row it may answer with, matching or not. */
const CHANGES_PER_ANSWER_ROW = 4;

/**
 * A poll: what changed after `since` — O(change), never O(tree). A burst bigger than one answer
 * is answered in turns: the answer covers the changes up to the `seq` it returns, and the next
 * poll continues from there. Within that span every change is either in `items` (it matches) or
 * in `removed` (it does not), and nothing after it is in either.
 */
export function queryChanges(db: Db, terms: Term[], since: number, limit: number): MessagePage {
  const seq = currentSeq(db);
  // The common poll: nothing happened. One indexed read answers it.
  if (since >= seq) return { items: [], nextCursor: null, seq, removed: [], more: false };
  const span = limit * CHANGES_PER_ANSWER_ROW;
  const changed = db.prepare("SELECT key, seq FROM messages WHERE seq > ? ORDER BY seq LIMIT ?").all(since, span) as { key: string; seq: number }[];
  // More changes than one answer reads: this answer ends at the last one read.
  let upTo = changed.length === span ? (changed[span - 1]?.seq ?? seq) : seq;
  const filter = compileFilter(terms, { fullText: fullTextReady(db) });
  const matching = summaryRows(db, `SELECT ${SUMMARY_COLUMNS} FROM messages WHERE seq > ? AND seq <= ? AND ${filter.where} ORDER BY seq LIMIT ?`, since, upTo, ...filter.params, limit);
  // A full answer ends at its last message: the changes after it are the next poll's.
  if (matching.length === limit) upTo = matching[limit - 1]?.seq ?? upTo;
  const kept = new Set(matching.map((r) => r.key));
  const removed = changed.filter((c) => c.seq <= upTo && !kept.has(c.key)).map((c) => c.key);
  return { items: matching.map(toSummary), nextCursor: null, seq: upTo, removed, more: upTo < seq };
}

export function querySummary(db: Db, key: string): MessageSummary | null {
  const [row] = summaryRows(db, `SELECT ${SUMMARY_COLUMNS} FROM messages WHERE key = ?`, key);
  return row ? toSummary(row) : null;
}

export interface StoredContent {
  raw: Buffer | null;
  /** `raw` is only the head of a file too big to keep whole (its headers). */
  rawIsHead: boolean;
  body: string;
  path: string | null;
  lastPath: string;
  source: string;
}

export function queryContent(db: Db, key: string): StoredContent | null {
  const row = db
    .prepare(
      `SELECT r.raw, coalesce(r.head_only, 0) AS rawIsHead, m.body, m.path, m.last_path AS lastPath, m.source
       FROM messages m LEFT JOIN message_raw r ON r.id = m.id WHERE m.key = ?`,
    )
    .get(key) as (Omit<StoredContent, "rawIsHead"> & { rawIsHead: number }) | undefined;
  return row ? { ...row, rawIsHead: row.rawIsHead === 1 } : null;
}

export function queryHistory(db: Db, key: string): HistoryEvent[] {
  const rows = db.prepare("SELECT at_ms, kind, detail, data FROM events WHERE key = ? ORDER BY at_ms, id").all(key) as {
    at_ms: number;
    kind: string;
    detail: string;
    data: string | null;
  }[];
  return rows.map((r) => {
    const event: HistoryEvent = { at: isoOf(r.at_ms), kind: r.kind, detail: r.detail };
    const data = r.data === null ? null : historyEventSchema.shape.data.safeParse(JSON.parse(r.data));
    if (data?.success && data.data) event.data = data.data;
    return event;
  });
}

const sourceRow = z.object({
  id: z.string(),
  protocol: z.enum(PROTOCOLS),
  root: z.string(),
  agents: z.string().transform((j): string[] => JSON.parse(j)),
  files: z.number(),
  total: z.number(),
  done: z.number(),
  error: z.string().nullable(),
});

export function querySources(db: Db): SourceInfo[] {
  const rows = z.array(sourceRow).parse(db.prepare("SELECT id, protocol, root, agents, files, total, done, error FROM sources ORDER BY id").all());
  const fullText = fullTextReady(db);
  return rows.map((r) => ({
    id: r.id,
    protocol: r.protocol,
    root: r.root,
    agents: r.agents,
    indexing: { done: r.done === 1, files: r.files, total: r.total, fullText },
    error: r.error,
  }));
}
