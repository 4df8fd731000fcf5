// A first fill inserts its new entries a batch at a time (entry-fill.ts): a few statements a batch,
// not several an entry, and the journal it leaves is the general path's, in the cases where the
// batch cannot take its answers from memory alone (a key already held, a place read twice, a tail).
import { afterEach, describe, expect, it } from "vitest";
import type { Entry } from "@/lib/protocols/entries";
import { makeEntry } from "@/lib/protocols/entry-kit";
import type { Db } from "./db";
import { EntryWriter, type EntryFileRead, type EntrySourceContext } from "./entry-writer";
import { makeKey } from "./keys";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";

const opened: TempJournal[] = [];
afterEach(() => {
  for (const j of opened.splice(0)) j.close();
});

const NOW = Date.parse("2026-11-27T00:00:00Z");
const ctx: EntrySourceContext = { source: "s1", protocol: "kicklang", resolve: (entries) => [...entries] };

/** A file of `ids`, each entry's bytes a line of its own (so each keeps its raw bytes). */
function fileOf(relPath: string, ids: readonly string[], fields: Partial<Entry> = {}): EntryFileRead {
  const lines = ids.map((id) => `{"id":"${id}"}\n`);
  const entries = ids.map((id, i) => {
    const start = lines.slice(0, i).join("").length;
    return makeEntry({ kind: "message", locator: `${start}`, messageId: id, agent: "a", folder: "inbox", status: "sent", body: `body of ${id}`,
      inReplyTo: i > 0 ? ids[i - 1] : null, span: { start, end: start + (lines[i]?.length ?? 0) }, ...fields });
  });
  const bytes = Buffer.from(lines.join(""));
  return { relPath, facts: { size: bytes.length, mtimeMs: NOW - 1000, ino: 1, consumed: bytes.length, head: bytes.subarray(0, 8) }, entries, problems: [], bytes, from: 0, whole: true };
}

/** The journal's entry tables and message rows, every column, sorted. */
function dump(db: Db): Record<string, string[]> {
  const tables = ["entries", "entry_refs", "entry_files", "messages", "events", "message_raw", "agent_counts", "thread_last"];
  return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all().map((r) => JSON.stringify(r)).sort()]));
}

/** How many times statements whose SQL starts with `prefix` are run, from now on. */
function runsOf(db: Db, prefix: string): { count: number } {
  const counted = { count: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!sql.trimStart().startsWith(prefix)) return statement;
    for (const name of ["run", "get", "all"] as const) {
      const original = statement[name].bind(statement) as (...a: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
        counted.count++;
        return original(...a);
      };
    }
    return statement;
  }) as typeof db.prepare;
  return counted;
}

/** The same batches journaled as a first fill and through the general path, into journals of their own. */
function bothPaths(before?: (db: Db) => void) {
  const open = () => {
    const j = openTempJournal(() => NOW);
    opened.push(j);
    before?.(j.db);
    return j.db;
  };
  const fill = open();
  const general = open();
  return {
    fill,
    general,
    apply(reads: EntryFileRead[]) {
      new EntryWriter(fill, () => NOW).apply(ctx, reads, [], { firstFill: true });
      new EntryWriter(general, () => NOW).apply(ctx, reads, [], { firstFill: false });
    },
  };
}

describe("a first fill's new entries", () => {
  it("go in a few statements a batch, not one or more an entry, into the journal the general path writes", () => {
    const paths = bothPaths();
    const ids = Array.from({ length: 1200 }, (_, i) => `m${i}`);
    const reads = [fileOf("a.jsonl", ids.slice(0, 600)), fileOf("b.jsonl", ids.slice(600))];
    const inserts = runsOf(paths.fill, "INSERT INTO entries");
    const refs = runsOf(paths.fill, "INSERT INTO entry_refs");
    const raws = runsOf(paths.fill, "INSERT INTO message_raw");
    const keys = runsOf(paths.fill, "SELECT 1 FROM entries WHERE key");
    const places = runsOf(paths.fill, "SELECT id, key, source, path, entry FROM entries WHERE source = ? AND path = ? AND locator = ?");
    paths.apply(reads);
    expect(inserts.count).toBeLessThanOrEqual(10);
    expect(refs.count).toBeLessThanOrEqual(10);
    expect(raws.count).toBeLessThanOrEqual(10);
    expect(keys.count + places.count).toBe(0);
    expect(paths.fill.prepare("SELECT count(*) FROM message_raw").pluck().get()).toBe(1200);
    expect(dump(paths.fill)).toEqual(dump(paths.general));
  });

  it("take the key the general path gives when the first choice is held by a row already journaled", () => {
    const held = makeKey("s1", "a.jsonl#0", "m0", 0);
    // Another source's message row under the key m0's entry would be given first.
    const paths = bothPaths((db) =>
      db.prepare("INSERT INTO messages (key, source, protocol, agent, folder, last_path, status, sort_ms, updated_ms, seq) VALUES (?, 'other', 'kicklang', 'x', 'inbox', 'x', 'sent', 0, 0, 0)").run(held),
    );
    paths.apply([fileOf("a.jsonl", ["m0", "m1"])]);
    const key = (db: Db) => db.prepare("SELECT key FROM entries WHERE message_id = 'm0'").pluck().get();
    expect(key(paths.fill)).toBe(makeKey("s1", "a.jsonl#0", "m0", 1));
    expect(dump(paths.fill)).toEqual(dump(paths.general));
  });

  it("read twice at one place in a batch: the second read updates the entry the first inserted, as the general path does", () => {
    const paths = bothPaths();
    const first = fileOf("a.jsonl", ["m0", "m1"]);
    const again = { ...fileOf("a.jsonl", ["m0"], { body: "changed" }), whole: false };
    paths.apply([first, again]);
    expect(paths.fill.prepare("SELECT count(*) FROM entries").pluck().get()).toBe(2);
    expect(dump(paths.fill)).toEqual(dump(paths.general));
  });

  it("a tail journaled before: its entries are met again at their places, not inserted twice", () => {
    const paths = bothPaths();
    const whole = fileOf("a.jsonl", ["m0", "m1", "m2", "m3"]);
    const tail: EntryFileRead = { ...whole, entries: whole.entries.slice(2), whole: false, tailOnly: true };
    paths.apply([tail]);
    paths.apply([whole]);
    expect(paths.fill.prepare("SELECT count(*) FROM entries").pluck().get()).toBe(4);
    expect(dump(paths.fill)).toEqual(dump(paths.general));
  });
});
