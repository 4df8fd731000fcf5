// The wave-2 sources as ingest drives them: no overdue sweep while a scan is under way (a request
// may be journaled a batch before its answer, already in its files), and one as soon as it is done.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { queryHistory, queryPage } from "@/lib/journal/queries";
import { VOCABULARY } from "@/lib/protocols";
import { parseQuery } from "@/lib/query";
import { copyFixture } from "@/lib/testing/fixtures";
import { discoverSources } from "./sources";
import { EntrySources } from "./entry-sources";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

describe("EntrySources.sweepDue", () => {
  it("marks nothing overdue while a scan is under way, and what is overdue once it is done", async () => {
    const root = copyFixture("workflow");
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entry-sources-"));
    temps.push(root, data);
    const journal = openJournal(path.join(data, "journal.db"));
    const sources = new EntrySources(journal);
    sources.adopt(await discoverSources([root]));
    const duringScan: number[] = [];
    // The scan pauses after each batch it journals: the ingest timer's sweep may run there.
    await sources.scanAll(async () => void duringScan.push(sources.sweepDue()), () => false);
    expect(duringScan.length).toBeGreaterThan(0);
    expect(duringScan.every((n) => n === 0)).toBe(true);
    const items = queryPage(journal.db, parseQuery("", VOCABULARY), 1000, null).items;
    expect(items.every((m) => !queryHistory(journal.db, m.key).some((e) => e.kind === "overdue"))).toBe(true);
    // The fixture's workflow message still waiting for its ack is long past due.
    expect(sources.sweepDue()).toBeGreaterThan(0);
  });
});
