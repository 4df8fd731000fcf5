// Which protocols a thread speaks, as the thread list and one thread's summary say: from the
// fixtures of two protocols journaled side by side in one root.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { EntryIngest } from "@/lib/ingest/entry-ingest";
import { discoverSources } from "@/lib/ingest/sources";
import { copyFixture } from "@/lib/testing/fixtures";
import { closeJournals, openJournal } from "./store";
import { summarizeThread } from "./thread-summary";
import { queryThread, queryThreads } from "./threads";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

it("names each thread's protocol, in the list and in the thread's own summary", async () => {
  const root = copyFixture("shogun");
  const kicklang = copyFixture("kicklang");
  temps.push(root, kicklang);
  fs.cpSync(kicklang, root, { recursive: true });
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-thread-protocols-"));
  temps.push(data);
  const journal = openJournal(path.join(data, "journal.db"));
  const ingest = new EntryIngest(journal.db);
  for (const s of (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []))) await ingest.scan(s);

  const items = queryThreads(journal.db, "", 100).items;
  const named = new Map(items.map((t) => [t.id, t.protocols]));
  // shogun threads by command (cmd_NNN), KickLang by correlation root: each speaks its own protocol only.
  expect([...named.values()].every((p) => p.length === 1)).toBe(true);
  expect(new Set([...named.values()].flat())).toEqual(new Set(["shogun", "kicklang"]));
  expect(named.get("cmd_048")).toEqual(["shogun"]);
  for (const t of items) {
    const thread = queryThread(journal.db, t.id);
    expect(thread && summarizeThread(thread).protocols, t.id).toEqual(t.protocols);
  }
});
