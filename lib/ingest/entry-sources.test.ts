// The wave-2 sources as ingest drives them: no overdue sweep while a scan is under way (a request
// may be journaled a batch before its answer, already in its files), and one as soon as it is done.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateIgniteYaml, generateKicklang, generateShogun, generateWorkflow } from "@/lib/bench/generate-wave2";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { DEFAULT_LIMIT, queryHistory, queryPage } from "@/lib/journal/queries";
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

describe("a start's first turn", () => {
  it("goes on, a small commit at a time, until the entry sources' newest page is as it will end", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-first-turn-"));
    const shogunRoot = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-first-turn-shogun-"));
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-first-turn-data-"));
    temps.push(root, shogunRoot, data);
    // Channels over their 16 KB tails: the tails alone fill the first commit, as the mixed bench's did.
    generateKicklang(root, 1_500);
    generateWorkflow(root, 600);
    generateIgniteYaml(root, 400);
    generateShogun(shogunRoot, 400);
    const journal = openJournal(path.join(data, "journal.db"));
    const all = await discoverSources([root, shogunRoot]);
    for (const s of all) journal.writer.upsertSource({ id: s.id, protocol: s.protocol, root: s.root, error: null });
    const sources = new EntrySources(journal, {}, { limits: { first: 100, rest: 100, tailBytes: 16 * 1024 }, now: () => Date.parse("2026-11-26T12:00:00Z") });
    sources.adopt(all);
    const page = () => queryPage(journal.db, parseQuery("", VOCABULARY), DEFAULT_LIMIT, null).items.map(({ seq: _seq, ...shown }) => shown);
    const messages = () => journal.db.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    let commits = 0;
    const pause = async () => void commits++;
    await sources.scanAll(pause, () => false, true, true);
    const afterFirstTurn = { page: page(), messages: messages(), commits };
    await sources.scanAll(pause, () => false, true);
    expect(afterFirstTurn.commits).toBeGreaterThan(1);
    expect(afterFirstTurn.messages).toBeLessThan(messages() / 2);
    expect(afterFirstTurn.page).toHaveLength(DEFAULT_LIMIT);
    expect(afterFirstTurn.page).toEqual(page());
  }, 60_000);
});
