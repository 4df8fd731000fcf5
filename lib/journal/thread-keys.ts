import "server-only";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import { DEAD_LETTERS_OF_SQL, REFRESH_SQL, REPLIES_TO_SQL } from "./thread-sql";

/** Enough for any real conversation; a guard against pathological reply loops. */
const MAX_CASCADE = 100_000;

interface Statements {
  refresh: Statement;
  deadLetters: Statement;
  replies: Statement;
}

const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = { refresh: db.prepare(REFRESH_SQL), deadLetters: db.prepare(DEAD_LETTERS_OF_SQL).pluck(), replies: db.prepare(REPLIES_TO_SQL).pluck() };
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
 * For a new row inserted with its thread_key already right (its own Thread-ID: see ownGroupOf):
 * what hangs from it (a reply or dead letter journaled before it) takes its thread, as
 * refreshThreadKey would have cascaded had it set the key. Spares each such row an UPDATE of
 * itself, its index entry and its thread's trigger row.
 */
export function threadKeySetAtInsert(db: Db, key: string, messageId: string | null): void {
  const s = statements(db);
  refreshFrom(s, hanging(s, key, messageId));
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
