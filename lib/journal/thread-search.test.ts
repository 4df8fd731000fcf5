// The thread list searches its members' bodies as the message list does: through the full-text
// index once it is built, which folds the case of every script (LIKE folds only ASCII's).
import { afterEach, describe, expect, it } from "vitest";
import { makeEntry } from "@/lib/protocols/entry-kit";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { EntryWriter } from "./entry-writer";
import { buildFullText } from "./fulltext";
import { queryPage } from "./queries";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { queryThreads } from "./threads";

let journal: TempJournal | null = null;
afterEach(() => journal?.close());

describe("searching threads", () => {
  it("finds a word in any case of any script, as the message list does", async () => {
    journal = openTempJournal();
    const entry = makeEntry({ kind: "message", locator: "m1", messageId: "m1", agent: "a", folder: "channel", status: "sent", threadKey: "t-1", body: "ОШИБКА: Überlauf im Puffer ＡＢＣ" });
    const facts = { size: 1, mtimeMs: 1_700_000_000_000, ino: 1, consumed: 1, head: Buffer.from("{") };
    new EntryWriter(journal.db).apply({ source: "s1", protocol: "kicklang", resolve: (e) => [...e] }, [
      { relPath: "channel.jsonl", facts, entries: [entry], problems: [], bytes: new Uint8Array(0), from: 0, whole: false },
    ]);
    await buildFullText(journal.db, async () => {});
    for (const word of ["ошибка", "überlauf", "ａｂｃ", "ОШИБКА"]) {
      expect(queryPage(journal.db, parseQuery(word, VOCABULARY), 10, null).items, word).toHaveLength(1);
      expect(queryThreads(journal.db, word, 10).items.map((t) => t.id), word).toEqual(["t-1"]);
    }
  });
});
