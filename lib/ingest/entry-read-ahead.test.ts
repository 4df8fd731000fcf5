// A big load reads its entry files ahead on a worker thread (entry-read-ahead.ts). The journal it
// leaves must be exactly the one a load that reads every file itself leaves: both read the same
// tree (every entry protocol, a file the safe open refuses among them) into journals of their own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EntryWriter } from "@/lib/journal/entry-writer";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { generateIgniteYaml, generateKicklang, generateShogun, generateWorkflow } from "@/lib/bench/generate-wave2";
import { dumpJournal } from "@/lib/testing/journal-dump";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { discoverSources } from "./sources";
import { EntryIngest } from "./entry-ingest";
import { BATCH_ENTRIES, FIRST_BATCH_ENTRIES } from "./entry-batch";
import { EntryReadAhead } from "./entry-read-ahead";
import { IngestWorkers } from "./workers";

const temp = tempDirs();
afterEach(() => {
  vi.restoreAllMocks();
  closeJournals();
});

const NOW = Date.parse("2026-11-26T12:00:00Z");

/** A tree of the four entry protocols (shogun in a root of its own, as the bench has it), with 4 KB tails so the channels' are read first. */
function tree(): string[] {
  const base = temp("mailroom-read-ahead-tree-");
  const [root, shogunRoot] = [path.join(base, "workspace"), path.join(base, "workspace-shogun")];
  generateIgniteYaml(root, 400);
  generateShogun(shogunRoot, 300);
  generateWorkflow(root, 300);
  generateKicklang(root, 300);
  // A message file with a second name: listed (a regular file), then refused by the safe open
  // (a hard link), on the worker and here alike: both names are passed over.
  const message = (fs.readdirSync(path.join(root, "queue"), { recursive: true }) as string[]).find((n) => n.endsWith(".yaml")) as string;
  fs.linkSync(path.join(root, "queue", message), path.join(root, "queue", path.dirname(message), `linked-${path.basename(message)}`));
  return [root, shogunRoot];
}

/** Every entry source of `roots` loaded into a journal of its own, as a start's second turn loads them (one load, newest first). */
async function loadAll(roots: string[], readAheadFiles: number, pause: () => Promise<void> = async () => {}, file = path.join(temp("mailroom-read-ahead-db-"), "journal.db"), stopped?: () => boolean) {
  const db = openJournal(file).db;
  const sources = (await discoverSources(roots)).flatMap((s) => (s.entries ? [s.entries] : []));
  expect(sources.map((s) => s.protocol).sort()).toEqual(["ignite-yaml", "kicklang", "shogun", "workflow"]);
  // 4 KB chunks: a channel is read in many, each its own answer from the worker.
  const ingest = new EntryIngest(db, () => NOW, {}, { first: FIRST_BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: 4096, chunkBytes: 4096, readAheadFiles });
  const plans = [];
  for (const s of sources) plans.push(await ingest.plan(s));
  await ingest.load(plans, { pause, stopped });
  return db.name;
}

/**
 * A load's pause that waits for the worker's first answer: from then on every part it was asked
 * for is taken from it, whatever the worker's cold start costs on a loaded machine.
 */
function untilWarm(open: { mock: { results: { value: unknown }[] } }) {
  return async () => {
    const reads = open.mock.results[0]?.value as EntryReadAhead | undefined;
    for (let i = 0; reads && !reads.warmed && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
  };
}

describe("a load's files read ahead on a worker", () => {
  // Two cores, whatever the machine running the tests has: on one the load reads every file itself.
  beforeEach(() => void vi.spyOn(os, "availableParallelism").mockReturnValue(2));

  it("leaves the journal that reading every file here leaves, with the worker's reads handed on and the worker closed", async () => {
    const roots = tree();
    const open = vi.spyOn(EntryReadAhead, "open");
    const close = vi.spyOn(IngestWorkers.prototype, "close");
    const ahead = dumpJournal(await loadAll(roots, 1, untilWarm(open)));
    const reads = open.mock.results[0]?.value as EntryReadAhead;
    expect(reads.handedOn).toBeGreaterThan(200);
    expect(close).toHaveBeenCalled();
    const here = dumpJournal(await loadAll(roots, Infinity));
    // 400 IGNITE v2 files but the one with two names, and 300 of each of the three other protocols.
    expect(ahead.messages!.length).toBe(1299);
    expect(ahead).toEqual(here);
  }, 60_000);

  it("leaves the same journal when the worker goes away mid-load: the rest is read here", async () => {
    const roots = tree();
    const original = IngestWorkers.prototype.readEntries;
    let jobs = 0;
    vi.spyOn(IngestWorkers.prototype, "readEntries").mockImplementation(function (this: IngestWorkers, job) {
      const answer = original.call(this, job);
      if (++jobs === 2) void this.close();
      return answer;
    });
    const ahead = dumpJournal(await loadAll(roots, 1, untilWarm(vi.spyOn(EntryReadAhead, "open"))));
    expect(jobs).toBeGreaterThanOrEqual(2);
    expect(ahead).toEqual(dumpJournal(await loadAll(roots, Infinity)));
  }, 60_000);

  it("stopped part-way, closes its worker; the next load goes on to the same journal", async () => {
    const roots = tree();
    const close = vi.spyOn(IngestWorkers.prototype, "close");
    const file = path.join(temp("mailroom-read-ahead-stop-"), "journal.db");
    // Stopped once its first commit is in. Not after a count of pauses: reading takes turns of its
    // own (YIELD_AFTER_MS), and a loaded machine can take several before the first commit.
    const applied = vi.spyOn(EntryWriter.prototype, "apply");
    await loadAll(roots, 1, async () => {}, file, () => applied.mock.calls.length > 0);
    expect(close).toHaveBeenCalled();
    const partWay = dumpJournal(file).messages!.length;
    expect(partWay).toBeGreaterThan(0);
    expect(partWay).toBeLessThan(1299);
    closeJournals();
    await loadAll(roots, 1, async () => {}, file);
    expect(dumpJournal(file).messages!.length).toBe(1299);
  }, 60_000);

  it("is left to a small load, which reads its files here", async () => {
    const roots = tree();
    const start = vi.spyOn(IngestWorkers, "open");
    await loadAll(roots, 100_000);
    expect(start).not.toHaveBeenCalled();
  }, 60_000);
});
