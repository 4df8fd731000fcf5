// The full-text fill on a journal analyzed before it (as a start does after its first scan): the
// index's own tables must not keep the statistics of when they were empty.
import { afterEach, describe, expect, it } from "vitest";
import { makeEntry } from "@/lib/protocols/entry-kit";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { EntryWriter } from "./entry-writer";
import { buildFullText } from "./fulltext";

let journal: TempJournal | null = null;
afterEach(() => journal?.close());

describe("buildFullText", () => {
  it("leaves statistics under which FTS5's range reads of its index seek, not scan it", async () => {
    journal = openTempJournal();
    const entries = Array.from({ length: 3000 }, (_, i) =>
      makeEntry({ kind: "message", locator: `m${i}`, messageId: `m${i}`, agent: "a", folder: "inbox", status: "sent", body: `report ${i}: ${"進捗 progress ".repeat(20)} ${i * 7919}` }),
    );
    const facts = { size: 1, mtimeMs: 1_700_000_000_000, ino: 1, consumed: 1, head: Buffer.from("{") };
    new EntryWriter(journal.db).apply({ source: "s1", protocol: "kicklang", resolve: (e) => [...e] }, [
      { relPath: "channel.jsonl", facts, entries, problems: [], bytes: new Uint8Array(0), from: 0, whole: false },
    ]);
    journal.writer.analyze();
    await buildFullText(journal.db, async () => {});
    const plan = journal.db.prepare("EXPLAIN QUERY PLAN SELECT id, block FROM messages_fts_data WHERE id >= ? AND id <= ?").all(1, 2) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/SEARCH messages_fts_data USING INTEGER PRIMARY KEY/);
  });
});
