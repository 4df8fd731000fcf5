// A reader that comes to make something else of the same bytes raises its version: the files an
// older version read are read again from their start at the next scan, their entries matched by
// place (same keys, no duplicates), and then left alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { copyFixture } from "@/lib/testing/fixtures";
import { EntryIngest, type EntrySource } from "./entry-ingest";
import { discoverSources } from "./sources";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

it("reads a source's files again once its reader's version moves, and only once", async () => {
  const root = copyFixture("shogun");
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-reader-version-"));
  temps.push(root, data);
  const journal = openJournal(path.join(data, "journal.db"));
  const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  if (!source) throw new Error("the fixture is a shogun source");
  const version = source.side.readerVersion ?? 0;
  // The same reader as an older version of it: one that named no sender.
  const older: EntrySource = {
    ...source,
    side: { ...source.side, readerVersion: version - 1, read: (rel, bytes, ctx) => { const r = source.side.read(rel, bytes, ctx); return { ...r, entries: r.entries.map((e) => ({ ...e, from: null })) }; } },
  };
  const rows = () => journal.db.prepare("SELECT key, from_name AS sender FROM messages WHERE type = 'task' ORDER BY key").all() as { key: string; sender: string | null }[];
  const messages = () => journal.db.prepare("SELECT count(*) FROM messages").pluck().get() as number;

  const ingest = new EntryIngest(journal.db);
  await ingest.scan(older);
  const before = rows();
  const total = messages();
  expect(before.length).toBeGreaterThan(0);
  expect(before.every((r) => r.sender === null)).toBe(true);

  // The current reader: every file again, the same messages, each now naming its sender.
  const again = await ingest.scan(source);
  expect(again.changed).toBeGreaterThan(0);
  expect(rows()).toEqual(before.map((r) => ({ ...r, sender: "karo" })));
  expect(messages()).toBe(total);

  // Nothing read a third time.
  expect((await ingest.scan(source)).changed).toBe(0);
  expect(journal.db.prepare("SELECT DISTINCT reader FROM entry_files").pluck().all()).toEqual([version]);
});
