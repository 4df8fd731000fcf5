// The entry journal's append path in a real journal: what a batch settles is what it wrote (not
// read back), and a new row threaded at its insert still threads what hangs from it.
import { afterEach, describe, expect, it } from "vitest";
import type { Entry } from "@/lib/protocols/entries";
import { makeEntry } from "@/lib/protocols/entry-kit";
import type { Db } from "./db";
import { EntryWriter, type EntryFileRead, type EntrySourceContext } from "./entry-writer";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";

const opened: TempJournal[] = [];
afterEach(() => {
  for (const j of opened.splice(0)) j.close();
});

function journal(): Db {
  const j = openTempJournal();
  opened.push(j);
  return j.db;
}

/** An adapter's settling, protocol-free: a message named by another's inReplyTo is answered. */
const ctx: EntrySourceContext = {
  source: "s1",
  protocol: "kicklang",
  resolve: (entries) => {
    const named = new Set(entries.map((e) => e.inReplyTo));
    return entries.map((e) => (e.messageId && named.has(e.messageId) ? { ...e, status: "answered" } : e));
  },
};

const message = (id: string, fields: Partial<Entry> = {}): Entry =>
  makeEntry({ kind: "message", locator: id, messageId: id, agent: "a", folder: "inbox", status: "sent", body: `body of ${id}`, ...fields });

/** A channel read from `from`: these entries appended. */
const appended = (entries: Entry[], consumed: number): EntryFileRead => ({
  relPath: "channel.jsonl",
  facts: { size: consumed, mtimeMs: 1_700_000_000_000, ino: 1, consumed, head: Buffer.from("{") },
  entries,
  problems: [],
  bytes: new Uint8Array(0),
  from: 0,
  whole: false,
});

/** Every JSON list a statement whose SQL holds `fragment` was run with (its .all), from now on. */
function listsAsked<T>(db: Db, fragment: string): T[][] {
  const asked: T[][] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!sql.includes(fragment)) return statement;
    const all = statement.all.bind(statement);
    statement.all = ((...params: unknown[]) => {
      asked.push(JSON.parse(params[params.length - 1] as string) as T[]);
      return all(...params);
    }) as typeof statement.all;
    return statement;
  }) as typeof db.prepare;
  return asked;
}

/** Every id list the settle's read of entries by id was asked for, from now on. */
const entryReadsById = (db: Db) => listsAsked<number>(db, "FROM entries WHERE id IN");
/** Every key list the settle's look-up of message rows was asked for, from now on. */
const rowLookups = (db: Db) => listsAsked<string>(db, "FROM messages WHERE key IN");

const row = (db: Db, key: string) =>
  db.prepare("SELECT status, thread_key AS threadKey, seq FROM messages WHERE message_id = ?").get(key) as { status: string; threadKey: string | null; seq: number };

describe("EntryWriter.apply on appends", () => {
  it("settles a batch's new entries as written, reading back only the entries they touch", () => {
    const db = journal();
    const asked = entryReadsById(db);
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    writer.apply(ctx, [appended([message("q1"), message("q2")], 100)]);
    expect(asked.flat()).toEqual([]);
    const before = db.prepare("SELECT id FROM entries WHERE message_id = 'q1'").pluck().get() as number;
    writer.apply(ctx, [appended([message("r1", { inReplyTo: "q1" }), message("r2", { inReplyTo: "r1" })], 200)]);
    // The request they answer was read; the two new entries were not.
    expect(asked.flat()).toEqual([before]);
    expect(row(db, "q1").status).toBe("answered");
    expect(row(db, "r1").status).toBe("answered");
    expect(row(db, "r2").status).toBe("sent");
    // Seqs in the order the journal reads entries by id: the new ones, then the request they reached.
    expect(row(db, "r1").seq).toBeLessThan(row(db, "r2").seq);
    expect(row(db, "r2").seq).toBeLessThan(row(db, "q1").seq);
  });

  it("asks which of an append's own locators its file holds, never for every locator the file holds", () => {
    const db = journal();
    const asked = listsAsked<string>(db, "FROM entries WHERE source = ? AND path = ? AND locator IN");
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    writer.apply(ctx, [appended(Array.from({ length: 50 }, (_, i) => message(`m${i}`, { span: { start: 2 * i, end: 2 * i + 2 } })), 100)]);
    asked.splice(0);
    // An append of two, one of them an id the channel holds already (upstream's ids are short random strings).
    const twin = message("m7", { span: { start: 150, end: 180 } });
    writer.apply(ctx, [{ ...appended([message("n1"), twin], 200), from: 100 }]);
    expect(asked).toEqual([["n1", "m7", "m7@150"]]);
    expect(db.prepare("SELECT locator FROM entries WHERE locator GLOB 'm7*' ORDER BY locator").pluck().all()).toEqual(["m7", "m7@150"]);
  });

  it("a new row with its own thread id threads at once, and a reply journaled before it joins it", () => {
    const db = journal();
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    // The reply first (a newer file read first), with no thread of its own.
    writer.apply(ctx, [appended([message("r1", { inReplyTo: "q1" })], 100)]);
    expect(row(db, "r1").threadKey).toBeNull();
    writer.apply(ctx, [appended([message("q1", { threadKey: "t-9" })], 200)]);
    expect(row(db, "q1").threadKey).toBe("h\x1ft-9");
    expect(row(db, "r1").threadKey).toBe("h\x1ft-9");
    expect(db.prepare("SELECT last_ms FROM thread_last WHERE thread_key = ?").pluck().get("h\x1ft-9")).not.toBeUndefined();
  });
});

const keyOf = (db: Db, id: string) => db.prepare("SELECT key FROM messages WHERE message_id = ?").pluck().get(id) as string;

describe("EntryWriter.apply: what an append settles again", () => {
  it("an answer to a request answered before looks up the request's row only, and leaves the other answers' rows alone", () => {
    const db = journal();
    const asked = rowLookups(db);
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    writer.apply(ctx, [appended([message("q1"), message("r1", { inReplyTo: "q1" }), message("r2", { inReplyTo: "q1" })], 100)]);
    const seqs = [row(db, "r1").seq, row(db, "r2").seq];
    asked.length = 0;
    writer.apply(ctx, [appended([message("r3", { inReplyTo: "q1" })], 200)]);
    expect(asked).toEqual([[keyOf(db, "q1")]]);
    expect(row(db, "q1").status).toBe("answered");
    expect(row(db, "r3").status).toBe("sent");
    expect([row(db, "r1").seq, row(db, "r2").seq]).toEqual(seqs);
  });

  it("an entry that changes settles what hangs from it again, all the way down", () => {
    const db = journal();
    const asked = rowLookups(db);
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    writer.apply(ctx, [appended([message("q1"), message("r1", { inReplyTo: "q1" }), message("r2", { inReplyTo: "r1" }), message("r3", { inReplyTo: "r2" })], 100)]);
    asked.length = 0;
    // q1 read again from its file, changed (a new body): its answers down the chain are settled again.
    writer.apply(ctx, [appended([message("q1", { body: "edited" })], 200)]);
    expect(new Set(asked.flat())).toEqual(new Set(["q1", "r1", "r2", "r3"].map((id) => keyOf(db, id))));
  });
});

describe("EntryWriter.apply for an adapter that settles by any referrer", () => {
  it("an answer to a request answered before reads the request, not its other answers, and settles it", () => {
    const db = journal();
    const asked = entryReadsById(db);
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    const any = { ...ctx, anyReferrer: true };
    writer.apply(any, [appended([message("q0"), message("q1", { inReplyTo: "q0" }), message("r1", { inReplyTo: "q1" }), message("r2", { inReplyTo: "q1" })], 100)]);
    const id = (m: string) => db.prepare("SELECT id FROM entries WHERE message_id = ?").pluck().get(m) as number;
    asked.length = 0;
    writer.apply(any, [appended([message("r3", { inReplyTo: "q1" })], 200)]);
    // Up the chain (q1, then q0), never down from it (r1, r2).
    expect(asked.flat().sort()).toEqual([id("q0"), id("q1")].sort());
    expect(row(db, "q1").status).toBe("answered");
    expect(row(db, "r3").status).toBe("sent");
  });

  it("an entry reached up a loop and down it too is settled with what names it", () => {
    const db = journal();
    const asked = entryReadsById(db);
    const writer = new EntryWriter(db, () => 1_700_000_000_000);
    const any = { ...ctx, anyReferrer: true };
    // a names b, b names d, d names a (a loop); c answers b.
    const loop = [message("a", { inReplyTo: "b" }), message("b", { inReplyTo: "d" }), message("d", { inReplyTo: "a" }), message("c", { inReplyTo: "b" })];
    writer.apply(any, [appended(loop, 100)]);
    const id = (m: string) => db.prepare("SELECT id FROM entries WHERE message_id = ?").pluck().get(m) as number;
    asked.length = 0;
    // a changes: b is what a names (up, first) and, through d, hangs from a (down, after): what names b (c) is read too.
    writer.apply(any, [appended([message("a", { inReplyTo: "b", body: "edited" })], 200)]);
    expect(asked.flat()).toContain(id("c"));
  });
});
