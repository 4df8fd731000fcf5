import "server-only";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import { DEAD_LETTERS_OF_ANY_SQL, DEAD_LETTERS_OF_SQL, REFRESH_SQL, REPLIES_TO_ANY_SQL, REPLIES_TO_SQL } from "./thread-sql";

/** Enough for any real conversation; a guard against pathological reply loops. */
const MAX_CASCADE = 100_000;

interface Statements {
  refresh: Statement;
  deadLetters: Statement;
  replies: Statement;
  deadLettersOfAny: Statement;
  repliesToAny: Statement;
}

const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = {
      refresh: db.prepare(REFRESH_SQL),
      deadLetters: db.prepare(DEAD_LETTERS_OF_SQL).pluck(),
      replies: db.prepare(REPLIES_TO_SQL).pluck(),
      deadLettersOfAny: db.prepare(DEAD_LETTERS_OF_ANY_SQL).pluck(),
      repliesToAny: db.prepare(REPLIES_TO_ANY_SQL).pluck(),
    };
    prepared.set(db, s);
  }
  return s;
}

/**
 * Bring a message's thread_key up to date, then every message hanging from it (replies without a
 * Thread-ID, dead letters) whose thread follows from it, for as long as something changes. Called
 * by the writer after each write that can move a message between threads; usually one UPDATE.
 */
export function refreshThreadKey(db: Db, key: string): void {
  refreshFrom(statements(db), [key]);
}

/**
 * For new rows inserted with their thread_key already right (their own Thread-ID: see ownGroupOf):
 * what hangs from them (a reply or dead letter journaled before them) takes their thread, as
 * refreshThreadKey would have cascaded had it set the keys. Spares each such row an UPDATE of
 * itself, its index entry and its thread's trigger row; a batch's rows are looked up together
 * (two statements, not two per row).
 */
export function threadKeysSetAtInsert(db: Db, rows: readonly { key: string; messageId: string | null }[]): void {
  if (rows.length === 0) return;
  const s = statements(db);
  const ids = rows.flatMap((r) => (r.messageId === null ? [] : [r.messageId]));
  const dead = s.deadLettersOfAny.all(JSON.stringify(rows.map((r) => r.key))) as string[];
  refreshFrom(s, ids.length > 0 ? [...dead, ...(s.repliesToAny.all(JSON.stringify(ids)) as string[])] : dead);
}

/** The messages that take their thread from `key` (dead letters) or from `messageId` (replies without a Thread-ID). */
function hanging(s: Statements, key: string, messageId: string | null): string[] {
  const dead = s.deadLetters.all(key) as string[];
  return messageId ? [...dead, ...(s.replies.all(messageId) as string[])] : dead;
}

function refreshFrom(s: Statements, queue: string[]): void {
  for (let done = 0; queue.length > 0 && done < MAX_CASCADE; done++) {
    const changed = s.refresh.get(queue.shift()) as { key: string; message_id: string | null } | undefined;
    if (changed) queue.push(...hanging(s, changed.key, changed.message_id));
  }
}
