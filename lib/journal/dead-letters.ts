import "server-only";
import type { DeadLetterItem, DeadLettersResponse } from "@/lib/actions";
import { KEY_PATTERN } from "@/lib/model";
import { parseDeadLetterBody } from "@/lib/protocols/ignite/dead-letter";
import { headerMap, parseHeaderLines, splitAddressList, splitHeaderBlock } from "@/lib/protocols/ignite/reference";
import type { Db } from "./db";
import { currentSeq } from "./queries";
import { getJournal } from "./store";
import { VersionedCache } from "./versioned";

/** Dead letters listed at most (newest first); a queue with more needs the search instead. */
const MAX_DEAD_LETTERS = 1000;

interface Row {
  key: string;
  source: string;
  path: string;
  body: string;
  date: string | null;
  problems: string;
  dead_letter_of: string | null;
  orig_path: string | null;
  orig_type: string | null;
  orig_from: string | null;
  orig_to: string | null;
  orig_thread: string | null;
}

function stringList(json: string | null): string[] {
  const value: unknown = json ? JSON.parse(json) : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function toItem(r: Row): DeadLetterItem {
  const info = parseDeadLetterBody(r.body);
  // The copy inside is the authority on the original; the journal's row fills the gaps.
  const headers = info.originalText === null ? null : headerMap(parseHeaderLines(splitHeaderBlock(info.originalText).headerPart));
  const header = (name: string) => headers?.get(name) || null;
  return {
    key: r.key,
    source: r.source,
    path: r.path,
    originalKey: r.dead_letter_of,
    originalFile: info.originalFile,
    originalTo: info.originalAgent ?? splitAddressList(header("To") ?? "")[0] ?? stringList(r.orig_to)[0] ?? null,
    originalType: header("X-IGNITE-Type") ?? r.orig_type,
    originalFrom: header("From") ?? r.orig_from,
    threadId: header("X-IGNITE-Thread-ID") ?? r.orig_thread,
    retryCount: info.retryCount,
    lastError: info.lastError,
    movedAt: info.movedAt ?? r.date,
    originalPath: r.orig_path,
    problems: stringList(r.problems),
  };
}

function queryDeadLetters(db: Db): DeadLettersResponse {
  const rows = db
    .prepare(
      `SELECT d.key, d.source, d.path, d.body, d.date, d.problems, d.dead_letter_of,
         o.path AS orig_path, o.type AS orig_type, o.from_name AS orig_from, o.to_list AS orig_to, o.thread_id AS orig_thread
       FROM messages d LEFT JOIN messages o ON o.key = d.dead_letter_of
       WHERE d.folder = 'dead_letter' AND d.path IS NOT NULL
       ORDER BY d.sort_ms DESC, d.key DESC LIMIT ?`,
    )
    .all(MAX_DEAD_LETTERS) as Row[];
  return { items: rows.map(toItem), seq: currentSeq(db) };
}

// Each item parses its dead letter's body (1,000 items took 160 ms), and the dead-letter page polls.
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
  if (!KEY_PATTERN.test(key)) return null;
  const keys = getJournal()
    .db.prepare("SELECT key FROM messages WHERE dead_letter_of = ? AND folder = 'dead_letter' AND path IS NOT NULL LIMIT 2")
    .pluck()
    .all(key) as string[];
  return keys.length === 1 ? (keys[0] ?? null) : null;
}
