import "server-only";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import { refreshDuplicates } from "./duplicates";
import { preparedOnce } from "./prepared";
import { refreshThreadKey } from "./thread-keys";
import { DEAD_LETTERS_OF_SQL, REFRESH_SQL, REPLIES_TO_SQL } from "./thread-sql";

// A first scan loads newest first (lib/ingest/newest-first.ts), so a reply is usually loaded before
// the message it answers. A reply without a Thread-ID takes its parent's thread (thread-sql.ts):
// until its parent is loaded that thread is not known, so it is loaded in no thread (thread_key
// NULL), not in a group of its own it would leave a moment later. Each chunk's transaction then
// settles, by the writer's own rules, what the chunk decides about every message loaded so far.

/** Same guard as thread-keys.ts: enough for any real conversation, against pathological reply loops. */
const MAX_CASCADE = 100_000;
/** Parents walked up from one reply; a longer chain of replies still waiting stays unknown until the load's end. */
const MAX_CHAIN = 1_000;

/** The columns a settle reads of a message. */
interface Link {
  key: string;
  message_id: string | null;
  in_reply_to: string | null;
  thread_id: string | null;
  dead_letter_of: string | null;
  thread_key: string | null;
}

const LINK = "key, message_id, in_reply_to, thread_id, dead_letter_of, thread_key";

/** A reply without a Thread-ID whose thread a load has not settled: the thread its parent gives it is not known yet. */
const waits = (m: Link) => m.thread_key === null && m.thread_id === null && m.in_reply_to !== null && m.dead_letter_of === null;

/** What a reply without a Thread-ID is loaded with: no thread until its parent is there (see LoadSettler). */
export const waitsForParent = (m: { thread_id: string | null; in_reply_to: string | null }) => m.thread_id === null && m.in_reply_to !== null;

/** A loaded message's part in the settle: its key and Message-ID, and whether it waits for its parent. */
export interface LoadedLink {
  key: string;
  messageId: string | null;
  waits: boolean;
}

/** A row of a chunk about to be inserted, as keysBeforeInsert reads it. */
export interface ChunkRow {
  messageId: string | null;
  inReplyTo: string | null;
  waits: boolean;
  /** The group its own headers and body give it (ownGroupOf). */
  ownGroup: string | null;
}

/** The least of thread keys as SQLite's min() orders TEXT (bytes of UTF-8, not JavaScript's UTF-16 units). */
function leastKey(keys: readonly string[]): string | null {
  return keys.reduce<string | null>((least, k) => (least === null || Buffer.compare(Buffer.from(k), Buffer.from(least)) < 0 ? k : least), null);
}

/**
 * Settles, inside a chunk's transaction and on the connection that inserts it (the main thread's or
 * a worker's), what the chunk's messages decide: replies whose parent is now loaded take its thread
 * (the chunk's replies to messages loaded before, and replies loaded before to the chunk's
 * messages, with every reply hanging from them), and files sharing a Message-ID are flagged. Its
 * lookups go through the two indexes a load keeps for it (bulk.ts LOAD_KEEPS).
 */
export class LoadSettler {
  private readonly sql: (text: string) => Statement;
  private readonly byKey: Statement;
  private readonly byMessageId: Statement;
  private readonly refresh: Statement;
  private readonly replies: Statement;
  private readonly deadLetters: Statement;
  private readonly repliesToAny: Statement;
  private readonly shared: Statement;
  private readonly parentsOfAny: Statement;

  constructor(db: Db) {
    this.sql = preparedOnce(db);
    this.byKey = db.prepare(`SELECT ${LINK} FROM messages WHERE key = ?`);
    this.byMessageId = db.prepare(`SELECT ${LINK} FROM messages WHERE message_id = ?`);
    this.refresh = db.prepare(REFRESH_SQL);
    this.replies = db.prepare(REPLIES_TO_SQL).pluck();
    this.deadLetters = db.prepare(DEAD_LETTERS_OF_SQL).pluck();
    // A chunk's thousands of Message-IDs are looked up in one statement each way (one call per
    // message cost more than the lookups themselves).
    this.repliesToAny = db.prepare(`SELECT key FROM messages WHERE in_reply_to IN (SELECT value FROM json_each(?)) AND thread_id IS NULL AND dead_letter_of IS NULL`).pluck();
    this.parentsOfAny = db.prepare(`SELECT ${LINK} FROM messages WHERE message_id IN (SELECT value FROM json_each(?))`);
    this.shared = db.prepare(`SELECT message_id FROM messages WHERE source = ? AND message_id IN (SELECT value FROM json_each(?))
      GROUP BY message_id HAVING count(*) > 1`).pluck();
  }

  /**
   * The thread of each of a chunk's waiting replies that is known before the chunk is inserted (its
   * parents are in the chunk, or loaded and settled before it): REFRESH_SQL's rule (the least thread
   * of the messages it replies to, else its own group), worked out here so that a reply whose parent
   * is in its own chunk (most of them) is inserted settled, not updated after: at 100,000 replies
   * without a Thread-ID, updating each cost 3 s of CPU. undefined: not known here; settle() decides.
   */
  keysBeforeInsert(rows: readonly ChunkRow[]): (string | null | undefined)[] {
    const wanted = [...new Set(rows.flatMap((r) => (r.waits && r.inReplyTo !== null ? [r.inReplyTo] : [])))];
    const loaded = new Map<string, Link[]>();
    for (const p of this.parentsOfAny.all(JSON.stringify(wanted)) as Link[]) {
      if (p.message_id !== null) loaded.set(p.message_id, [...(loaded.get(p.message_id) ?? []), p]);
    }
    const inChunk = new Map<string, number[]>();
    rows.forEach((r, i) => r.messageId !== null && inChunk.set(r.messageId, [...(inChunk.get(r.messageId) ?? []), i]));
    const keys: (string | null | undefined)[] = rows.map((r) => (r.waits ? undefined : r.ownGroup));
    const done = rows.map((r) => !r.waits);
    const keyOf = (i: number, depth: number): string | null | undefined => {
      if (done[i]) return keys[i];
      const r = rows[i];
      // Parents loaded before that still wait (or settled in no thread), or a loop: left to settle().
      if (!r || r.inReplyTo === null || depth > MAX_CHAIN) return undefined;
      done[i] = true;
      const fromJournal = loaded.get(r.inReplyTo) ?? [];
      const fromChunk = (inChunk.get(r.inReplyTo) ?? []).filter((j) => j !== i);
      let key: string | null | undefined = undefined;
      if ((fromJournal.length > 0 || fromChunk.length > 0) && !fromJournal.some(waits)) {
        const parentKeys = [...fromJournal.map((p) => p.thread_key), ...fromChunk.map((j) => keyOf(j, depth + 1))];
        if (!parentKeys.includes(undefined)) key = leastKey(parentKeys.filter((k): k is string => typeof k === "string")) ?? r.ownGroup;
      }
      keys[i] = key;
      return key;
    };
    return rows.map((_, i) => keyOf(i, 0));
  }

  /** Call in the transaction that inserted `loaded`, after the inserts. `nowMs` times a duplicate's event. */
  settle(source: string, loaded: readonly LoadedLink[], nowMs: number): void {
    const messageIds = JSON.stringify([...new Set(loaded.flatMap((m) => (m.messageId === null ? [] : [m.messageId])))]);
    // The chunk's replies settled before their insert (keysBeforeInsert) are left out.
    const settledInChunk = new Set(loaded.flatMap((m) => (m.waits ? [] : [m.key])));
    const repliesLoaded = (this.repliesToAny.all(messageIds) as string[]).filter((key) => !settledInChunk.has(key));
    this.settleThreads([...loaded.filter((m) => m.waits).map((m) => m.key), ...repliesLoaded]);
    // Files are only added during a load: a Message-ID that only one file has was flagged by nothing.
    for (const messageId of this.shared.all(source, messageIds) as string[]) refreshDuplicates(this.sql, source, messageId, nowMs);
  }

  /** Settle each waiting message of `queue` whose parents are all loaded, then what hangs from it. */
  private settleThreads(queue: string[]): void {
    const settled = new Set<string>();
    // Found waiting for a message not loaded: nothing loads during a settle, so its replies wait too
    // (without this, each reply of a chain walked up the whole chain again).
    const unknown = new Set<string>();
    for (let done = 0; queue.length > 0 && done < MAX_CASCADE; done++) {
      const m = this.byKey.get(queue.shift()) as Link | undefined;
      if (!m || settled.has(m.key)) continue;
      // A dead letter journaled early (scan.ts) takes its message's thread, now that it is known.
      if (m.dead_letter_of !== null) this.refresh.get(m.key);
      const fresh: Link[] = [];
      if (!waits(m) || !this.settleUp(m, { settled, unknown, fresh }, 0)) continue;
      for (const s of fresh) {
        if (s.message_id !== null) queue.push(...(this.replies.all(s.message_id) as string[]));
        queue.push(...(this.deadLetters.all(s.key) as string[]));
      }
    }
  }

  /**
   * Settle `m` (a waiting reply) once every message it replies to is loaded, its waiting parents
   * first (each added to `fresh`): false while one is not (it then stays in no thread). The thread
   * comes from REFRESH_SQL, the writer's own rule. A parent settled with no thread at all (no group
   * of its own, none from its parent) keeps NULL, so it is asked again, up its chain: such chains are rare.
   */
  private settleUp(m: Link, found: { settled: Set<string>; unknown: Set<string>; fresh: Link[] }, depth: number): boolean {
    const { settled, unknown, fresh } = found;
    if (unknown.has(m.key)) return false;
    const parents = depth > MAX_CHAIN ? [] : (this.byMessageId.all(m.in_reply_to) as Link[]).filter((p) => p.key !== m.key);
    settled.add(m.key); // a loop of replies ends here: each then falls back on its own group, as at the load's end
    if (parents.some((p) => waits(p) && !settled.has(p.key) && !this.settleUp(p, found, depth + 1)) || parents.length === 0) {
      settled.delete(m.key);
      unknown.add(m.key);
      return false;
    }
    this.refresh.get(m.key);
    fresh.push(m);
    return true;
  }
}

/**
 * A load that never reached its end (a crash, a kill) left replies waiting in no thread: each
 * takes the thread BulkLoad.finish() would have given it (its parent's if loaded since, else its
 * own group). For the journal's next open, with the indexes back.
 */
export function settleWaitingReplies(db: Db): void {
  const waiting = db
    .prepare("SELECT key FROM messages WHERE thread_key IS NULL AND thread_id IS NULL AND in_reply_to IS NOT NULL AND dead_letter_of IS NULL ORDER BY id")
    .pluck()
    .all() as string[];
  for (const key of waiting) refreshThreadKey(db, key);
}
