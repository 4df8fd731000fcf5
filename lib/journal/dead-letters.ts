import "server-only";
import type { DeadLetterAction, DeadLetterItem, DeadLettersResponse } from "@/lib/actions";
import { DEAD_LETTER_FOLDER, KEY_PATTERN, type Protocol } from "@/lib/model";
import { catalogOf, deadLetterFactsOf, PROTOCOL_ACTIONS } from "@/lib/protocols";
import type { Db } from "./db";
import { currentSeq } from "./queries";
import { getJournal } from "./store";
import { VersionedCache } from "./versioned";

/** Dead letters listed at most (newest first); a queue with more needs the search instead. */
const MAX_DEAD_LETTERS = 1000;

interface Row {
  key: string;
  source: string;
  protocol: Protocol;
  path: string;
  agent: string;
  folder: string;
  status: string;
  type: string | null;
  message_id: string | null;
  from_name: string | null;
  to_list: string;
  locator: string;
  body: string;
  date: string | null;
  problems: string;
  dead_letter_of: string | null;
  orig_path: string | null;
  orig_folder: string | null;
  orig_type: string | null;
  orig_from: string | null;
  orig_to: string | null;
  orig_thread: string | null;
  orig_agent: string | null;
}

function stringList(json: string | null): string[] {
  const value: unknown = json ? JSON.parse(json) : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The page's two actions, as the letter's protocol offers them (each reads the letter's body; its parsed form is not kept here). */
function actionsOf(r: Row): DeadLetterAction[] {
  const offered = PROTOCOL_ACTIONS[r.protocol].actionsFor({
    key: r.key, protocol: r.protocol, path: r.path, agent: r.agent, folder: r.folder, status: r.status, type: r.type, messageId: r.message_id,
    from: r.from_name, to: stringList(r.to_list), body: r.body, data: null, heldAgent: r.orig_agent, locator: r.locator,
  });
  return offered.flatMap((a) => (a.id === "requeue" || a.id === "discard" ? [{ id: a.id, verb: a.verb }] : []));
}

function toItem(r: Row): DeadLetterItem {
  // The letter's own account of its original first (its protocol reads it); the journal's rows fill the gaps.
  const facts = deadLetterFactsOf(r.protocol, r.body);
  return {
    key: r.key,
    source: r.source,
    protocol: r.protocol,
    actions: actionsOf(r),
    path: r.path,
    originalKey: r.dead_letter_of,
    originalFile: facts?.originalFile ?? null,
    originalTo: facts?.originalTo ?? stringList(r.orig_to)[0] ?? null,
    originalType: facts?.originalType ?? r.orig_type,
    originalFrom: facts?.originalFrom ?? r.orig_from,
    threadId: facts?.threadId ?? r.orig_thread,
    retryCount: facts?.retryCount ?? null,
    lastError: facts?.lastError ?? null,
    movedAt: facts?.movedAt ?? r.date,
    // On disk, and not in the archive: a requeue's copy taken back by its Undo lies there, and is no live original.
    originalPath: r.orig_path !== null && r.orig_folder !== catalogOf(r.protocol).fileLife?.archive ? r.orig_path : null,
    problems: stringList(r.problems),
  };
}

const ROW_SQL = `SELECT d.key, d.source, d.protocol, d.path, d.agent, d.folder, d.status, d.type, d.message_id, d.from_name, d.to_list, d.locator,
    d.body, d.date, d.problems, d.dead_letter_of,
    o.path AS orig_path, o.folder AS orig_folder, o.type AS orig_type, o.from_name AS orig_from, o.to_list AS orig_to, o.thread_id AS orig_thread, o.agent AS orig_agent
  FROM messages d LEFT JOIN messages o ON o.key = d.dead_letter_of WHERE d.key = ?`;

/** The dead letters to list, newest first, each with a stamp that moves whenever its row or its original's does. */
export const LISTED_DEAD_LETTERS_SQL = `SELECT d.key, d.seq || ':' || coalesce(o.seq, '') AS stamp
  FROM messages d LEFT JOIN messages o ON o.key = d.dead_letter_of
  WHERE d.folder = '${DEAD_LETTER_FOLDER}' AND d.path IS NOT NULL
  ORDER BY d.sort_ms DESC, d.key DESC LIMIT ?`;

/**
 * Items as last built, by key. Any write to the journal moves the list's version, but a write
 * seldom touches a dead letter: an item is built again (its body parsed) only when its stamp moved.
 */
const built = new WeakMap<Db, Map<string, { stamp: string; item: DeadLetterItem }>>();

function queryDeadLetters(db: Db, settled: boolean): DeadLettersResponse {
  const listed = db.prepare(LISTED_DEAD_LETTERS_SQL).all(MAX_DEAD_LETTERS) as { key: string; stamp: string }[];
  const last = built.get(db) ?? new Map<string, { stamp: string; item: DeadLetterItem }>();
  const next = new Map<string, { stamp: string; item: DeadLetterItem }>();
  const rowOf = db.prepare(ROW_SQL);
  for (const { key, stamp } of listed) {
    const kept = last.get(key);
    const row = kept?.stamp === stamp ? null : (rowOf.get(key) as Row | undefined);
    const item = row ? toItem(row) : kept?.item;
    if (item) next.set(key, { stamp, item });
  }
  // Rows read inside a caller's transaction may be rolled back and their seqs taken again: never kept.
  if (settled) built.set(db, next);
  return { items: [...next.values()].map((b) => b.item), seq: currentSeq(db) };
}

// The list is computed again once the journal's seq moves (one lookup while nothing changed); each
// item parses its dead letter's body (1,000 took 160 ms), so only the items whose rows moved are.
const deadLetters = new VersionedCache<DeadLettersResponse>((db) => String(currentSeq(db)), queryDeadLetters);

/**
 * Every dead letter still on disk (folder dead_letter), newest first, with its failure facts;
 * exactly as of its seq, and computed again only once a message changed (which takes a seq).
 */
export function listDeadLetters(): DeadLettersResponse {
  return deadLetters.get(getJournal().db).value;
}

/** The dead letter on disk that holds the message `key`, if exactly one does. */
export function deadLetterHolding(key: string): string | null {
  return KEY_PATTERN.test(key) ? letterHolding(getJournal().db, key) : null;
}

/** deadLetterHolding on a journal at hand. */
export function letterHolding(db: Db, key: string): string | null {
  const keys = db
    .prepare(`SELECT key FROM messages WHERE dead_letter_of = ? AND folder = '${DEAD_LETTER_FOLDER}' AND path IS NOT NULL LIMIT 2`)
    .pluck()
    .all(key) as string[];
  return keys.length === 1 ? (keys[0] ?? null) : null;
}
