// A big load reads its entry files ahead on a worker thread (entry-read-ahead.ts). The journal it
// leaves must be exactly the one a load that reads every file itself leaves: both read the same
// tree (every entry protocol, a file the safe open refuses among them) into journals of their own.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
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
  // A message file that is a link out of the root: refused by the safe open, on the worker and here.
  const queue = path.join(root, "queue", fs.readdirSync(path.join(root, "queue"))[0] as string);
  fs.symlinkSync("/etc/hostname", path.join(queue, "20260101-000000-link.yaml"));
  return [root, shogunRoot];
}

/** Every entry source of `roots` loaded into a journal of its own, as a start's second turn loads them (one load, newest first). */
async function loadAll(roots: string[], readAheadFiles: number, pause: () => Promise<void> = async () => {}) {
  const db = openJournal(path.join(temp("mailroom-read-ahead-db-"), "journal.db")).db;
  const sources = (await discoverSources(roots)).flatMap((s) => (s.entries ? [s.entries] : []));
  expect(sources.map((s) => s.protocol).sort()).toEqual(["ignite-yaml", "kicklang", "shogun", "workflow"]);
  const ingest = new EntryIngest(db, () => NOW, {}, { first: FIRST_BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: 4096, readAheadFiles });
  const plans = [];
  for (const s of sources) plans.push(await ingest.plan(s));
  await ingest.load(plans, { pause });
  return db.name;
}

describe("a load's files read ahead on a worker", () => {
  it("leaves the journal that reading every file here leaves, with the worker's reads handed on and the worker closed", async () => {
    const roots = tree();
    const open = vi.spyOn(EntryReadAhead, "open");
    const close = vi.spyOn(IngestWorkers.prototype, "close");
    // Each pause waits for the worker's first answer: from then on every part it was asked for is
    // taken from it, whatever the worker's cold start costs on a loaded machine.
    const warm = async () => {
      const reads = open.mock.results[0]?.value as EntryReadAhead | undefined;
      for (let i = 0; reads && !reads.warmed && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const ahead = dumpJournal(await loadAll(roots, 1, warm));
    const reads = open.mock.results[0]?.value as EntryReadAhead;
    expect(reads.handedOn).toBeGreaterThan(200);
    expect(close).toHaveBeenCalled();
    const here = dumpJournal(await loadAll(roots, Infinity));
    expect(ahead.messages!.length).toBe(1300);
    expect(ahead).toEqual(here);
  }, 60_000);

  it("is left to a small load, which reads its files here", async () => {
    const roots = tree();
    const start = vi.spyOn(IngestWorkers, "open");
    await loadAll(roots, 100_000);
    expect(start).not.toHaveBeenCalled();
  }, 60_000);
});
