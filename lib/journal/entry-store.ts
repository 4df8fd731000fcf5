import "server-only";
// The entries table: each entry exactly as its adapter read it (before statuses that depend on
// other entries were settled), with the ids it refers to, so a change settles only the entries it
// touches (entry-settle.ts). Protocol-neutral: it stores the contract's Entry, never a protocol's words.
import type { Statement } from "better-sqlite3";
import type { Entry } from "@/lib/protocols/entries";
import { duplicateId } from "@/lib/protocols/entry-kit";
import type { Db } from "./db";
import { preparedOnce } from "./prepared";

export interface StoredEntry {
  id: number;
  key: string;
  source: string;
  path: string | null;
  /** As its adapter read it, without its parsed structure (`data` is null here: see dataOf). */
  entry: Entry;
  /** The stored JSON of `entry`, to tell a changed entry without writing it out again. */
  json: string;
}

interface Row {
  id: number;
  key: string;
  source: string;
  path: string | null;
  entry: string;
}

const toStored = (r: Row): StoredEntry => ({ id: r.id, key: r.key, source: r.source, path: r.path, entry: JSON.parse(r.entry) as Entry, json: r.entry });

/** An entry as stored: its parsed structure apart (settling never reads it), as JSON. */
function storedForm(e: Entry): { json: string; data: string | null } {
  return { json: JSON.stringify({ ...e, data: null }), data: e.data === null ? null : JSON.stringify(e.data) };
}

/**
 * An appended value (bytes from `from` on) whose locator a value read before has: upstream's ids are
 * short random strings, so two can meet. It is journaled apart (`id@offset`, as a stream reader does
 * within one read), with a problem, instead of taking the first one's row. Null: not such a value.
 */
export function apartFromEarlier(stored: StoredEntry, e: Entry, from: number): Entry | null {
  const earlier = stored.entry.span;
  if (!e.span || e.span.start < from || !earlier || earlier.start >= from) return null;
  return { ...e, locator: `${e.locator}@${e.span.start}`, problems: [...e.problems, duplicateId(e.locator, earlier.start)] };
}

/** The ids an entry names: its link targets, its correlation and reply ids. */
export function refsOf(e: Entry): string[] {
  const ids = new Set<string>();
  for (const l of e.links) ids.add(l.targetId);
  if (e.correlationId) ids.add(e.correlationId);
  if (e.inReplyTo) ids.add(e.inReplyTo);
  return [...ids];
}

/**
 * A list of values as one bound parameter (a JSON array): one statement, prepared once, for any
 * length. An IN list of its own length made each neighbourhood lookup a statement prepared again
 * (3.5 % of the CPU of a stream of appends).
 */
const IN_LIST = "(SELECT value FROM json_each(?))";

/**
 * For lookups by `kind = ?`: SQLite weighs the partial index of documents (kind = 'document') by
 * the value bound, so such a statement was prepared again at every call (2.8 % of the CPU of a
 * stream of appends). Named, no other index is weighed; this one is the lookup's own.
 */
const BY_MESSAGE_ID = "INDEXED BY entries_message_id";

export class EntryStore {
  /** Each SQL text prepared once (see prepared.ts). */
  private readonly sql: (text: string) => Statement;

  constructor(db: Db) {
    this.sql = preparedOnce(db);
  }

  at(source: string, path: string, locator: string): StoredEntry | null {
    const row = this.sql("SELECT id, key, source, path, entry FROM entries WHERE source = ? AND path = ? AND locator = ?").get(source, path, locator) as Row | undefined;
    return row ? toStored(row) : null;
  }

  /** Every entry present in one file. */
  inFile(source: string, path: string): StoredEntry[] {
    return (this.sql("SELECT id, key, source, path, entry FROM entries WHERE source = ? AND path = ?").all(source, path) as Row[]).map(toStored);
  }

  /** `known`: entries as this transaction wrote them, taken from there instead of read back (see EntryWriter.apply). */
  byId(ids: readonly number[], known?: ReadonlyMap<number, StoredEntry>): StoredEntry[] {
    const held = known ? ids.flatMap((id) => known.get(id) ?? []) : [];
    const rest = held.length > 0 ? ids.filter((id) => !known?.has(id)) : ids;
    if (rest.length === 0) return held.sort((x, y) => x.id - y.id);
    const read = (this.sql(`SELECT id, key, source, path, entry FROM entries WHERE id IN ${IN_LIST}`).all(JSON.stringify(rest)) as Row[]).map(toStored);
    // In id order, as the IN list reads them: settling writes rows (and takes seqs) in this order.
    return held.length > 0 ? [...held, ...read].sort((x, y) => x.id - y.id) : read;
  }

  /** Entries of a source whose own id is one of `messageIds`. */
  withMessageIds(source: string, messageIds: readonly string[]): number[] {
    if (messageIds.length === 0) return [];
    return this.sql(`SELECT id FROM entries WHERE source = ? AND message_id IN ${IN_LIST}`).pluck().all(source, JSON.stringify(messageIds)) as number[];
  }

  /** Entries of a source that name one of `messageIds` (a link, a correlation or reply id). */
  referring(source: string, messageIds: readonly string[]): number[] {
    if (messageIds.length === 0) return [];
    return this.sql(`SELECT entry FROM entry_refs WHERE source = ? AND target IN ${IN_LIST}`).pluck().all(source, JSON.stringify(messageIds)) as number[];
  }

  /** A source's documents (commands, tasks, reports), up to `limit`: adapters thread messages by them. */
  documents(source: string, limit: number): number[] {
    return this.sql("SELECT id FROM entries WHERE source = ? AND kind = 'document' LIMIT ?").pluck().all(source, limit) as number[];
  }

  /** The present entry of a source with this id and kind at another path than `path` (a move's other half). */
  twinElsewhere(source: string, messageId: string, kind: string, path: string): StoredEntry | null {
    const row = this.sql(
      `SELECT id, key, source, path, entry FROM entries ${BY_MESSAGE_ID} WHERE source = ? AND message_id = ? AND kind = ? AND path IS NOT NULL AND path != ? ORDER BY id LIMIT 1`,
    ).get(source, messageId, kind, path) as Row | undefined;
    return row ? toStored(row) : null;
  }

  /**
   * An entry of a source with this id and kind seen before elsewhere than `path`: the latest gone
   * one (it may come back here), else the first present at another path (a move's other half).
   * One lookup for what gone() then twinElsewhere() would find: a first scan asks it of every entry.
   */
  earlier(source: string, messageId: string, kind: string, path: string): StoredEntry | null {
    const row = this.sql(
      `SELECT id, key, source, path, entry FROM entries ${BY_MESSAGE_ID} WHERE source = ? AND message_id = ? AND kind = ? AND (path IS NULL OR path != ?)
       ORDER BY path IS NOT NULL, CASE WHEN path IS NULL THEN -id ELSE id END LIMIT 1`,
    ).get(source, messageId, kind, path) as Row | undefined;
    return row ? toStored(row) : null;
  }

  /** The new entry as stored (what byId would now read of it). */
  insert(key: string, source: string, path: string, e: Entry): StoredEntry {
    const form = storedForm(e);
    const id = Number(
      this.sql("INSERT INTO entries (key, source, path, locator, kind, message_id, entry, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .run(key, source, path, e.locator, e.kind, e.messageId, form.json, form.data).lastInsertRowid,
    );
    // A new id has no refs yet: every entry removed took its refs with it (remove), so none are left to delete.
    this.addRefs(id, source, e);
    return { id, key, source, path, entry: { ...e, data: null }, json: form.json };
  }

  /** The entry as now read, at its (possibly new) path: as stored now, or null when nothing changed. */
  update(was: StoredEntry, path: string, e: Entry): StoredEntry | null {
    const next = storedForm(e);
    const data = this.sql("SELECT data FROM entries WHERE id = ?").pluck().get(was.id) as string | null;
    if (was.path === path && was.json === next.json && data === next.data) return null;
    this.sql("UPDATE entries SET path = ?, locator = ?, kind = ?, message_id = ?, entry = ?, data = ? WHERE id = ?").run(path, e.locator, e.kind, e.messageId, next.json, next.data, was.id);
    this.setRefs(was.id, was.source, e);
    return { ...was, path, entry: { ...e, data: null }, json: next.json };
  }

  /** An entry's parsed structure, kept apart from it (null: it has none). */
  dataOf(id: number): Entry["data"] {
    const json = this.sql("SELECT data FROM entries WHERE id = ?").pluck().get(id) as string | null | undefined;
    return json ? (JSON.parse(json) as Entry["data"]) : null;
  }

  markGone(id: number): void {
    this.sql("UPDATE entries SET path = NULL WHERE id = ?").run(id);
  }

  remove(id: number): void {
    this.sql("DELETE FROM entry_refs WHERE entry = ?").run(id);
    this.sql("DELETE FROM entries WHERE id = ?").run(id);
  }

  private setRefs(id: number, source: string, e: Entry): void {
    this.sql("DELETE FROM entry_refs WHERE entry = ?").run(id);
    this.addRefs(id, source, e);
  }

  private addRefs(id: number, source: string, e: Entry): void {
    for (const target of refsOf(e)) this.sql("INSERT INTO entry_refs (entry, source, target) VALUES (?, ?, ?)").run(id, source, target);
  }
}
