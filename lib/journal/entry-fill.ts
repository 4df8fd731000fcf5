import "server-only";
// A first fill's new entries (EntryWriter.apply), gathered and inserted a batch at a time. An
// empty source has nothing to look up entry by entry: an entry of it is in the journal only if a
// channel's tail was read before the rest (read here once per batch, by path), and a new entry's
// key is taken only by a hash collision (its first choice looked up once per batch). Row by row,
// the INSERT, the look-up of its place and the look-up of its key were 3 statements an entry:
// 280,000 for the 93,000 entries of the mixed bench's tree.
import type { Statement } from "better-sqlite3";
import type { Entry } from "@/lib/protocols/entries";
import { insertBound } from "./bound-insert";
import { refsOf, storedForm, type EntryStore, type StoredEntry } from "./entry-store";
import { makeKey } from "./keys";

const ENTRY_COLUMNS = ["id", "key", "source", "path", "locator", "kind", "message_id", "entry", "data"] as const;
const REF_COLUMNS = ["entry", "source", "target"] as const;
const IN_LIST = "(SELECT value FROM json_each(?))";

const placeOf = (path: string, locator: string) => `${path}\0${locator}`;
/** Where an entry was first seen, which its key is made from. */
const originOf = (path: string, e: Entry) => (e.locator === "" ? path : `${path}#${e.locator}`);

export class EntryFill {
  /** Places (path and locator) of entries in the journal before this batch: a tail's. */
  private readonly journaled = new Set<string>();
  /** New entries not yet inserted, by place. */
  private readonly pending = new Map<string, StoredEntry>();
  private rows: unknown[][] = [];
  private refs: unknown[][] = [];
  /** Keys an entry or message row holds, or this batch gave; of those in `asked`, the journal's are here too. */
  private readonly taken = new Set<string>();
  private readonly asked = new Set<string>();
  /** Each read entry's first choice of key (made once: a key is a SHA-256). */
  private readonly firstKeys = new Map<Entry, string>();
  /** The ids SQLite would give the batch's entries inserted one by one (no AUTOINCREMENT: the largest plus one). */
  private nextId: number;

  constructor(
    private readonly sql: (text: string) => Statement,
    private readonly store: EntryStore,
    private readonly source: string,
    reads: readonly { relPath: string; entries: readonly Entry[] }[],
  ) {
    for (const s of store.inFiles(source, [...new Set(reads.map((r) => r.relPath))])) if (s.path !== null) this.journaled.add(placeOf(s.path, s.entry.locator));
    for (const r of reads) {
      for (const e of r.entries) {
        const key = makeKey(source, originOf(r.relPath, e), e.messageId, 0);
        this.firstKeys.set(e, key);
        this.asked.add(key);
      }
    }
    const list = JSON.stringify([...this.asked]);
    for (const k of this.sql(`SELECT key FROM entries WHERE key IN ${IN_LIST} UNION ALL SELECT key FROM messages WHERE key IN ${IN_LIST}`).pluck().all(list, list) as string[]) this.taken.add(k);
    this.nextId = this.sql("SELECT coalesce(max(id), 0) + 1 FROM entries").pluck().get() as number;
  }

  /** The entry journaled at this place (what EntryStore.at finds), this batch's own included. */
  at(path: string, locator: string): StoredEntry | null {
    const place = placeOf(path, locator);
    // Seen twice in one batch (a file listing one place twice): the second is an update, as row by row.
    if (this.pending.has(place)) this.flush();
    return this.journaled.has(place) ? this.store.at(this.source, path, locator) : null;
  }

  /** A new entry, as stored once flush() has inserted it. */
  insert(path: string, e: Entry): StoredEntry {
    const id = this.nextId++;
    const key = this.newKey(path, e);
    const form = storedForm(e);
    this.rows.push([id, key, this.source, path, e.locator, e.kind, e.messageId, form.json, form.data]);
    for (const target of refsOf(e)) this.refs.push([id, this.source, target]);
    const stored: StoredEntry = { id, key, source: this.source, path, entry: { ...e, data: null }, json: form.json };
    this.pending.set(placeOf(path, e.locator), stored);
    return stored;
  }

  /** Insert what insert() gathered: before anything reads the entries table for them (settling). */
  flush(): void {
    insertBound(this.sql, "entries", ENTRY_COLUMNS, this.rows);
    insertBound(this.sql, "entry_refs", REF_COLUMNS, this.refs);
    for (const place of this.pending.keys()) this.journaled.add(place);
    this.pending.clear();
    this.rows = [];
    this.refs = [];
  }

  /** As EntryWriter's newKey: the first attempt no entry or message row holds. */
  private newKey(path: string, e: Entry): string {
    const exists = this.sql("SELECT 1 FROM entries WHERE key = ? UNION ALL SELECT 1 FROM messages WHERE key = ?");
    for (let attempt = 0; ; attempt++) {
      const key = (attempt === 0 ? this.firstKeys.get(e) : undefined) ?? makeKey(this.source, originOf(path, e), e.messageId, attempt);
      if (this.taken.has(key) || (!this.asked.has(key) && exists.get(key, key))) continue;
      this.taken.add(key);
      return key;
    }
  }
}
