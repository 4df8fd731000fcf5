import "server-only";
import { parseQuery, QueryError, type Term } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { ApiError } from "@/lib/server/errors";
import { groupString, inferredPrefix, kindOf, longIdHash, MAX_ADDRESSED_ID, parseGroup, threadAddressOf, threadIdOf } from "@/lib/threads/ids";
import type { ThreadDetail, ThreadKind, ThreadList, ThreadSummary } from "@/lib/threads/model";
import type { Db } from "./db";
import { compileFilter } from "./filter";
import { fullTextReady } from "./fulltext";
import { currentSeq } from "./queries";
import { SUMMARY_COLUMNS, summaryRows, toSummary } from "./rows";
import { getJournal } from "./store";
import { inSnapshot } from "./versioned";
import { buildThreadGraph, type Requeue } from "./thread-graph";
import { INFERRED_GROUPS_SQL, LONG_HEADER_THREAD_IDS_SQL, THREAD_LAST_SQL, THREAD_ROWS_SQL, threadsMatchingSql } from "./thread-sql";
import { summarizeThread, tallyThreads, type GroupRow } from "./thread-summary";

export const MAX_THREADS = 1000;
export const DEFAULT_THREADS = 200;

// Answers are cached per journal seq: a poll when nothing changed costs one counter read.
const cache = ((globalThis as typeof globalThis & { __mailroomThreadCache?: Map<string, { seq: number; value: unknown }> })
  .__mailroomThreadCache ??= new Map());

/**
 * `make()` as of the journal's seq, read in one snapshot (an answer kept under a seq is sent as a
 * 304 for it). Inside a caller's transaction, whose writes may yet be rolled back, nothing is kept.
 */
function cached<T>(db: Db, name: string, make: () => T): T {
  if (db.inTransaction) return make();
  return inSnapshot(db, () => {
    const seq = currentSeq(db);
    const id = `${db.name}\0${name}`;
    const hit = cache.get(id);
    if (hit && hit.seq === seq) return hit.value as T;
    const value = make();
    cache.delete(id);
    cache.set(id, { seq, value });
    if (cache.size > 16) cache.delete(cache.keys().next().value ?? "");
    return value;
  });
}

function terms(q: string): Term[] {
  try {
    return parseQuery(q, VOCABULARY);
  } catch (err) {
    if (err instanceof QueryError) throw new ApiError(400, "bad_query", `Bad search: ${err.message}`);
    throw err;
  }
}

/** Every thread, newest activity (last message) first. `q` is the message search syntax over members. */
export function queryThreads(db: Db, q: string, limit: number): ThreadList {
  const parsed = terms(q);
  // `after:-1h` means another time at each call: such a list is made afresh, never kept, and its
  // version (a poll's ETag) names the times it was made for.
  const relative = parsed.flatMap((t) => (t.kind === "date" && t.relative ? [t.ms] : []));
  const asOf = relative.length > 0 ? `@${relative.join(",")}` : "";
  const make = (): ThreadList => {
    let hits: Set<string> | null = null;
    if (parsed.length > 0) {
      // As the message list searches: with the full-text index once it is built (LIKE folds only ASCII's case).
      const filter = compileFilter(parsed, { fullText: fullTextReady(db) });
      hits = new Set(db.prepare(threadsMatchingSql(filter.where)).pluck().all(...filter.params) as string[]);
    }
    const word = parsed.length === 1 && parsed[0]?.kind === "text" && !parsed[0].negate ? parsed[0].value.toLowerCase() : null;
    // Lossy ids (owner/repo and owner-repo) name one thread: merge their groups.
    const byId = new Map<string, { id: string; kind: ThreadKind; lastMs: number; groups: string[]; hit: boolean }>();
    for (const r of db.prepare(THREAD_LAST_SQL).all() as { g: string; last_ms: number }[]) {
      const group = parseGroup(r.g);
      if (!group) continue;
      const id = threadIdOf(group);
      const kind = kindOf(group);
      const name = `${kind}\0${id}`;
      const t = byId.get(name) ?? { id, kind, lastMs: r.last_ms, groups: [], hit: false };
      t.lastMs = Math.max(t.lastMs, r.last_ms);
      t.groups.push(r.g);
      t.hit ||= hits === null || hits.has(r.g);
      byId.set(name, t);
    }
    const matching = [...byId.values()].filter((t) => t.hit || (word !== null && t.id.toLowerCase().includes(word)));
    matching.sort((a, b) => b.lastMs - a.lastMs || a.id.localeCompare(b.id));
    const top = matching.slice(0, limit);
    const rows = db.prepare(THREAD_ROWS_SQL).all(JSON.stringify(top.flatMap((t) => t.groups))) as GroupRow[];
    const summaries = new Map(tallyThreads(rows).map((t) => [`${t.kind}\0${t.id}`, t]));
    const items = top.flatMap((t) => summaries.get(`${t.kind}\0${t.id}`) ?? []);
    const seq = currentSeq(db);
    return { items, seq, total: matching.length, version: `${seq}${asOf}` };
  };
  return asOf ? make() : cached(db, `list\0${q}\0${limit}`, make);
}

/** The thread_keys an id names: its header thread, else the inferred groups whose id it is. */
function groupsFor(db: Db, id: string): { kind: ThreadKind; groups: string[] } | null {
  const header = groupString({ by: "header", threadId: id });
  if (db.prepare("SELECT 1 FROM messages WHERE thread_key = ? LIMIT 1").get(header)) return { kind: "header", groups: [header] };
  const prefix = inferredPrefix(id);
  if (!prefix) return null;
  const all = db.prepare(INFERRED_GROUPS_SQL).pluck().all(prefix[0], prefix[0]) as string[];
  const groups = all.filter((g) => {
    const group = parseGroup(g);
    return group !== null && threadIdOf(group) === id;
  });
  return groups.length > 0 ? { kind: "inferred", groups } : null;
}

/** The thread with its messages in time order, edges and branches; null when no message is in it. */
export function queryThread(db: Db, id: string): ThreadDetail | null {
  return cached(db, `thread\0${id}`, () => {
    const found = groupsFor(db, id);
    if (!found) return null;
    const rows = summaryRows(db, `SELECT ${SUMMARY_COLUMNS} FROM messages WHERE thread_key IN (SELECT value FROM json_each(?)) ORDER BY sort_ms, key`, JSON.stringify(found.groups));
    const messages = rows.map(toSummary);
    const keys = JSON.stringify(messages.map((m) => m.key));
    const requeues = db
      .prepare("SELECT key, at_ms AS atMs FROM events WHERE kind = 'requeued' AND key IN (SELECT value FROM json_each(?)) ORDER BY at_ms, id")
      .all(keys) as Requeue[];
    const inThread = new Set(messages.map((m) => m.messageId));
    const wanted = [...new Set(messages.map((m) => m.inReplyTo).filter((mid): mid is string => mid !== null && !inThread.has(mid)))];
    const outside = new Map(
      (db.prepare("SELECT message_id, key FROM messages WHERE message_id IN (SELECT value FROM json_each(?))").all(JSON.stringify(wanted)) as {
        message_id: string;
        key: string;
      }[]).map((r) => [r.message_id, r.key]),
    );
    return { id, kind: found.kind, messages, ...buildThreadGraph(messages, requeues, outside), seq: currentSeq(db) };
  });
}

/** The thread a message belongs to (header or inferred), or null. */
export function queryThreadOf(db: Db, key: string): { id: string; kind: ThreadKind } | null {
  const g = db.prepare("SELECT thread_key FROM messages WHERE key = ?").pluck().get(key) as string | null | undefined;
  const group = g ? parseGroup(g) : null;
  return group ? { id: threadIdOf(group), kind: kindOf(group) } : null;
}

// The facade the API and pages use (re-exported by lib/journal/index.ts).

export function listThreads(opts: { q?: string; limit?: number; key?: string }): ThreadList {
  const { db } = getJournal();
  const limit = opts.limit ?? DEFAULT_THREADS;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_THREADS) {
    throw new ApiError(400, "bad_limit", `limit must be a whole number from 1 to ${MAX_THREADS}`);
  }
  if (opts.key !== undefined) {
    const of = queryThreadOf(db, opts.key);
    const thread = of ? queryThread(db, of.id) : null;
    const items: ThreadSummary[] = thread ? [summarizeThread(thread)] : [];
    const seq = currentSeq(db);
    return { items, seq, total: items.length, version: String(seq) };
  }
  return queryThreads(db, opts.q ?? "", limit);
}

export function getThread(id: string): ThreadDetail | null {
  return queryThread(getJournal().db, id);
}

/** The header thread id, too long for an address, whose hash this is (such ids are rare: only they are hashed). */
function longThreadId(db: Db, hash: string): string | null {
  // SQLite's length() counts code points, an address's limit UTF-16 units (an emoji is two):
  // every id over the limit is over half of it in code points, and is then measured as the link was.
  const ids = db.prepare(LONG_HEADER_THREAD_IDS_SQL).pluck().all(Math.floor(MAX_ADDRESSED_ID / 2)) as string[];
  return ids.find((id) => id.length > MAX_ADDRESSED_ID && longIdHash(id) === hash) ?? null;
}

/** The id a route's decoded `[id]` segment names (threadIdSegment wrote it), or null when no thread has it. */
export function threadIdAt(segment: string): string | null {
  const { db } = getJournal();
  const address = threadAddressOf(segment);
  const id = "hash" in address ? longThreadId(db, address.hash) : address.id;
  return id !== null && id !== "" && groupsFor(db, id) ? id : null;
}

/** The thread as the API's JSON text, serialized once per journal change (big threads poll cheaply). */
export function getThreadJson(id: string): string | null {
  const { db } = getJournal();
  return cached(db, `thread-json\0${id}`, () => {
    const thread = queryThread(db, id);
    return thread ? JSON.stringify(thread) : null;
  });
}

/** Each message's journaled body text, for the Markdown transcript. */
export function threadBodies(keys: string[]): Map<string, string> {
  const rows = getJournal()
    .db.prepare("SELECT key, body FROM messages WHERE key IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify(keys)) as { key: string; body: string }[];
  return new Map(rows.map((r) => [r.key, r.body]));
}
