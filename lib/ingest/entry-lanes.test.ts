// A start's first fills in lanes, as EntrySources drives them (entry-lanes.ts): started once the
// first turn is done, merged at the second, on worker threads. That a lane leaves the rows a fill
// in place leaves is lane.test.ts's; here, that a start takes them, ends with every message, leaves
// no lane behind, and gives up a lane that fails (its sources then read in place).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateKicklang, generateWorkflow } from "@/lib/bench/generate-wave2";
import { openLane } from "@/lib/journal/lane";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { copyFixture } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { EntryLanes } from "./entry-lanes";
import { EntrySources } from "./entry-sources";
import { IngestWorkers } from "./workers";
import { discoverSources } from "./sources";

const temp = tempDirs();
afterEach(() => {
  closeJournals();
  vi.restoreAllMocks();
});

const pause = () => new Promise<void>((r) => setImmediate(r));
/** A first turn of a few small commits (channels read 16 KB at a time), so most of each fill is left to the lanes. */
const LIMITS = { first: 100, rest: 2_000, tailBytes: 4096, chunkBytes: 16 * 1024 };

/** A start's two turns over `roots` into a journal of its own; lanes from `lanesFromBytes` left to read. */
async function start(roots: string[], lanesFromBytes: number) {
  const journal = openJournal(path.join(temp("mailroom-entry-lanes-data-"), "journal.db"));
  const sources = new EntrySources(journal, {}, { limits: LIMITS, lanesFromBytes });
  sources.adopt(await discoverSources(roots));
  await sources.scanAll(pause, () => false, true, true);
  await sources.scanAll(pause, () => false, true);
  const rows = (sql: string) => journal.db.prepare(sql).all().map((r) => JSON.stringify(r)).sort();
  return {
    file: journal.file,
    messages: rows("SELECT key, source, status, thread_key, path FROM messages"),
    entries: rows("SELECT key, source, path, locator, entry, data FROM entries"),
    seen: rows("SELECT key FROM events WHERE kind = 'seen'"),
    files: rows("SELECT source, path, size, consumed, reader FROM entry_files"),
  };
}

describe("a start's lanes", () => {
  it.skipIf(os.availableParallelism() < 2)("go on with the first fills the first turn left, and end with the messages, entries and statuses a start in place ends with", async () => {
    const root = temp("mailroom-entry-lanes-tree-");
    // Bigger than the first turn's 10 commits of 100 (newest first over every source): both fills are left part-way.
    generateKicklang(root, 3_000);
    generateWorkflow(root, 2_000);
    const v2 = copyFixture("ignite-yaml", temp("mailroom-entry-lanes-v2-"));
    const said = vi.spyOn(console, "log");
    const inLanes = await start([root, v2], 0);
    expect(said.mock.calls.some(([line]) => String(line).startsWith("[mailroom] first fills in "))).toBe(true);
    said.mockClear();
    const inPlace = await start([root, v2], Infinity);
    expect(said.mock.calls.some(([line]) => String(line).includes("lanes"))).toBe(false);

    expect(inLanes.messages.length).toBeGreaterThan(4_000);
    expect(inLanes.messages).toEqual(inPlace.messages);
    expect(inLanes.entries).toEqual(inPlace.entries);
    // Each message's history starts once, however its rows went through a lane.
    expect(inLanes.seen).toEqual(inLanes.messages.map((m) => JSON.stringify({ key: (JSON.parse(m) as { key: string }).key })).sort());
    expect(inLanes.files).toEqual(inPlace.files);
    expect(fs.readdirSync(path.dirname(inLanes.file)).filter((f) => f.includes(".lane-"))).toEqual([]);
  });

  it.skipIf(os.availableParallelism() < 2)("give up a lane that fails: nothing of it is merged, and no lane is left on disk", async () => {
    const root = copyFixture("kicklang", temp("mailroom-entry-lanes-kicklang-"));
    const journal = openJournal(path.join(temp("mailroom-entry-lanes-data-"), "journal.db"));
    const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    const file = { relPath: "none.jsonl", place: { agent: "x", folder: "channel" }, size: 1, mtimeMs: 0, ino: 1 } as never;
    // A layout no protocol reads: the lane's worker fails before it fills anything.
    const plans = ["a", "b"].map((id) => ({ source: { ...source!, id, layout: { ...source!.layout, protocol: "nobody" } } as never, files: [file], dirs: [], changed: [file], deleted: [], known: new Map() }));
    const failed = vi.spyOn(console, "error").mockImplementation(() => {});
    const lanes = EntryLanes.start(journal.file, plans, ["a", "b"], {}, 0);
    expect(lanes).not.toBeNull();
    expect(await lanes!.merge(() => false)).toEqual([]);
    expect(failed.mock.calls.filter(([line]) => String(line).includes("read in place"))).toHaveLength(2);
    expect(journal.db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(0);
    expect(fs.readdirSync(path.dirname(journal.file)).filter((f) => f.includes(".lane-"))).toEqual([]);
  });

  it("are merged by a worker that answers a merge that fails with its error, and goes on answering", async () => {
    const journal = openJournal(path.join(temp("mailroom-entry-lanes-data-"), "journal.db"));
    const workers = IngestWorkers.open(1)!;
    try {
      const dir = path.dirname(journal.file);
      const job = { journalFile: journal.file, laneFile: path.join(dir, "none.lane"), seed: { sources: ["s"], eventsThrough: 0 } };
      await expect(workers.mergeLane(job)).rejects.toThrow();
      // Not a thread that died with the first: a merge of a real (empty) lane after it is done.
      const laneFile = path.join(dir, "journal.db.lane-0");
      const { db, seed } = openLane(laneFile, journal.file, ["s"]);
      db.close();
      await expect(workers.mergeLane({ ...job, laneFile, seed })).resolves.toBe(0);
    } finally {
      await workers.close();
    }
  });

  it.skipIf(os.availableParallelism() < 2)("are given up by anything that comes before the start's second turn (file events here): their sources are read in place", async () => {
    const root = temp("mailroom-entry-lanes-tree-");
    generateKicklang(root, 3_000);
    generateWorkflow(root, 2_000);
    // A third source: on two threads (on any machine) its lane waits for one, and is given up before it fills.
    vi.spyOn(os, "availableParallelism").mockReturnValue(2);
    const v2 = copyFixture("ignite-yaml", temp("mailroom-entry-lanes-v2-"));
    const journal = openJournal(path.join(temp("mailroom-entry-lanes-data-"), "journal.db"));
    const sources = new EntrySources(journal, {}, { limits: LIMITS, lanesFromBytes: 0 });
    sources.adopt(await discoverSources([root, v2]));
    const said = vi.spyOn(console, "log");
    const lanes = vi.spyOn(EntryLanes, "start");
    await sources.scanAll(pause, () => false, true, true);
    expect(lanes.mock.results[0]?.value).toBeInstanceOf(EntryLanes);
    // A scan that failed between its turns: the file events queued behind it come first.
    await sources.apply([]);
    expect(fs.readdirSync(path.dirname(journal.file)).filter((f) => f.includes(".lane-"))).toEqual([]);
    await sources.scanAll(pause, () => false, true);
    expect(said.mock.calls.some(([line]) => String(line).startsWith("[mailroom] first fills in "))).toBe(false);
    expect(journal.db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe((await start([root, v2], Infinity)).messages.length);
  });

  it("remove the lanes a killed server left, never merging them", () => {
    const journal = openJournal(path.join(temp("mailroom-entry-lanes-data-"), "journal.db"));
    const left = [`${journal.file}.lane-0`, `${journal.file}.lane-3-journal`];
    for (const f of left) fs.writeFileSync(f, "half a lane");
    // Too little left to read for lanes: none start, and the leftovers go all the same.
    expect(EntryLanes.start(journal.file, [], [], {})).toBeNull();
    expect(left.filter((f) => fs.existsSync(f))).toEqual([]);
  });
});
