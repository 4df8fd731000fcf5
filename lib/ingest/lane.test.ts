// A lane (lib/journal/lane.ts, lane-job.ts) goes on with a start's first fills in a journal of its
// own, from a copy of what the start's first turn wrote, and is merged back. The journal it leaves
// must be the one a fill in place leaves, but for row ids and seqs, which a merge gives anew: both
// ways read the same trees into journals of their own, which are compared table by table.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKicklang, generateWorkflow } from "@/lib/bench/generate-wave2";
import { mergeLane, removeLane } from "@/lib/journal/lane";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { copyFixture } from "@/lib/testing/fixtures";
import { dumpJournalByKey } from "@/lib/testing/journal-dump";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { EntryIngest, type EntryPlan } from "./entry-ingest";
import { fillLane } from "./lane-job";
import { discoverSources } from "./sources";

const temp = tempDirs();
afterEach(() => closeJournals());

const NOW = Date.parse("2026-11-26T12:00:00Z");
/** Small commits, so a first turn of two commits leaves most of each fill to do. */
const LIMITS = { first: 300, rest: 300, tailBytes: 4096 };

async function entrySources(roots: string[]) {
  return (await discoverSources(roots)).flatMap((s) => (s.entries ? [s.entries] : []));
}

/** A start's first turn, then the rest of its fills: in place, or in a lane merged back. */
async function start(roots: string[], file: string, inLane: boolean): Promise<string[]> {
  const db = openJournal(file).db;
  const ingest = new EntryIngest(db, () => NOW, {}, LIMITS);
  const sources = await entrySources(roots);
  const plans: EntryPlan[] = [];
  for (const s of sources) plans.push(await ingest.plan(s));
  await ingest.load(plans, { pause: async () => {}, maxCommits: 2 });
  const left = ingest.fillsLeft();
  if (inLane) {
    const laneFile = `${file}.lane-0`;
    const job = {
      kind: "fillLane" as const, id: 0, journalFile: file, laneFile, context: {},
      sources: plans.filter((p) => left.includes(p.source.id)).map((p) => ({ id: p.source.id, layout: p.source.layout, files: p.files, dirs: p.dirs })),
    };
    const answer = await fillLane(job, () => NOW, { ...LIMITS, readAheadFiles: Infinity });
    if (!("lane" in answer)) throw new Error(answer.error);
    mergeLane(db, laneFile, answer.lane.seed);
    removeLane(laneFile);
    expect(fs.existsSync(laneFile)).toBe(false);
  }
  const again: EntryPlan[] = [];
  for (const s of sources) again.push(await ingest.plan(s));
  await ingest.load(again, { pause: async () => {} });
  return left;
}

describe("a lane", () => {
  it("leaves the journal a fill in place leaves: requests answered and messages acked across commits, both sides of the first turn", async () => {
    const root = temp("mailroom-lane-tree-");
    generateKicklang(root, 2_600);
    generateWorkflow(root, 1_500);
    const shogun = copyFixture("shogun", temp("mailroom-lane-shogun-"));
    const v2 = copyFixture("ignite-yaml", temp("mailroom-lane-v2-"));
    const data = temp("mailroom-lane-data-");
    const files = { inPlace: path.join(data, "in-place.db"), lane: path.join(data, "lane.db") };

    const left = await start([root, shogun, v2], files.inPlace, false);
    expect(left.length).toBeGreaterThan(1);
    expect(await start([root, shogun, v2], files.lane, true)).toEqual(left);

    const inPlace = dumpJournalByKey(files.inPlace);
    expect(inPlace.messages!.length).toBeGreaterThan(4_000);
    const lane = dumpJournalByKey(files.lane);
    // Counts keep a mark of every state a row went through (a status counted down to 0, a row's
    // later time before its file was read whole), and a lane's rows go through other states than
    // in place (the first turn's rows deleted at the merge): the counts themselves are the same.
    const { agent_counts: laneCounts, ...laneRest } = lane;
    const { agent_counts: inPlaceCounts, ...inPlaceRest } = inPlace;
    expect(laneRest).toEqual(inPlaceRest);
    const counts = (rows: string[]) => rows.map((r) => JSON.parse(r) as { n: number; last_ms: number }).filter((r) => r.n > 0).map(({ last_ms: _, ...r }) => JSON.stringify(r));
    expect(counts(laneCounts!)).toEqual(counts(inPlaceCounts!));
  });

  it("keeps an event written to the journal after the lane's copy, and gives every merged message a seq after it", async () => {
    const root = copyFixture("kicklang", temp("mailroom-lane-kicklang-"));
    const data = temp("mailroom-lane-data-");
    const file = path.join(data, "journal.db");
    const db = openJournal(file).db;
    const ingest = new EntryIngest(db, () => NOW, {}, { first: 2, rest: 2, tailBytes: 4096 });
    const [source] = await entrySources([root]);
    const plan = await ingest.plan(source!);
    await ingest.load([plan], { pause: async () => {}, maxCommits: 1 });
    const laneFile = path.join(data, "journal.db.lane-0");
    const answer = await fillLane({ kind: "fillLane", id: 0, journalFile: file, laneFile, context: {}, sources: [{ id: source!.id, layout: source!.layout, files: plan.files, dirs: plan.dirs }] }, () => NOW);
    if (!("lane" in answer)) throw new Error(answer.error);
    // An operator's action on a message the first turn journaled, while the lane fills.
    const key = db.prepare("SELECT key FROM messages LIMIT 1").pluck().get() as string;
    db.prepare("INSERT INTO events (key, at_ms, kind, detail) VALUES (?, ?, 'action', 'marked read by an operator')").run(key, NOW);
    const seqBefore = db.prepare("SELECT max(seq) FROM messages").pluck().get() as number;

    const merged = mergeLane(db, laneFile, answer.lane.seed);
    removeLane(laneFile);
    expect(merged).toBe(db.prepare("SELECT count(*) FROM messages").pluck().get());
    expect(db.prepare("SELECT count(*) FROM events WHERE key = ? AND kind = 'action'").pluck().get(key)).toBe(1);
    expect(db.prepare("SELECT min(seq) FROM messages").pluck().get()).toBeGreaterThan(seqBefore);
    expect(db.prepare("SELECT count(DISTINCT seq) FROM messages").pluck().get()).toBe(merged);
  });
});
