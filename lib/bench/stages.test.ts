// `npm run bench -- --stages`: the table's arithmetic, and each stage's harness on a small tree
// (Mailroom's code and its floor must handle every file, or the ratio compares unlike work).
import { describe, expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { generateIgniteTree } from "./generate";
import { formatTable, overlapFloor, tabulate, totals, type StageFigures } from "./stage-table";
import { runStages } from "./stages";

const temp = tempDirs();

const figures = (stage: string, wallMs: number, cpuMs: number, floor: [number, number] | null, floorCount: number | null = 10): StageFigures => ({
  stage, count: 10, mailroom: { wallMs, cpuMs }, floor: floor && { wallMs: floor[0], cpuMs: floor[1] }, floorCount: floor ? floorCount : null, floorIs: "a floor",
});

describe("the stage table", () => {
  it("gives each stage its ratio to its floor and its share of the stages' sum, in wall and CPU time", () => {
    const [a, b, c] = tabulate([figures("a", 300, 200, [100, 50]), figures("b", 100, 200, null), figures("c", 0, 0, [0, 0])]);
    expect(a).toMatchObject({ ratio: 3, cpuRatio: 4, share: 0.75, cpuShare: 0.5 });
    // No floor, or one too fast to time: no ratio, never a division by zero.
    expect(b).toMatchObject({ ratio: null, cpuRatio: null, share: 0.25, cpuShare: 0.5 });
    expect(c).toMatchObject({ ratio: null, cpuRatio: null, share: 0, cpuShare: 0 });
  });

  it("sums the floors with a stage that has none counted as its own", () => {
    const lines = tabulate([figures("a", 300, 200, [100, 50]), figures("b", 100, 200, null)]);
    expect(totals(lines)).toEqual({ mailroom: { wallMs: 400, cpuMs: 400 }, floor: { wallMs: 200, cpuMs: 250 } });
    expect(tabulate([])).toEqual([]);
  });

  it("bounds the whole ingest by its serial stages and the worker threads' share of the rest", () => {
    const cpu = (stage: string, cpuMs: number) => figures(stage, cpuMs, cpuMs, null);
    const lines = tabulate([cpu("listing", 10), cpu("reading", 100), cpu("parsing", 300), cpu("building rows", 60), cpu("inserting rows", 140),
      cpu("building indexes", 50), cpu("settling threads", 5), cpu("full text", 35)]);
    expect(overlapFloor(lines, 0)).toBe(700);
    expect(overlapFloor(lines, 2)).toBe(10 + 300 + 50 + 5 + 35);
    // Inserts take turns: more workers cannot take the load below them.
    expect(overlapFloor(lines, 8)).toBe(10 + 140 + 50 + 5 + 35);
  });

  it("prints a line a stage, the sum against the raw read, and a floor that did other work", () => {
    const lines = tabulate([figures("listing", 300, 200, [100, 50]), figures("reading", 100, 200, [50, 50], 9)]);
    const out = formatTable(lines, 200, null).join("\n");
    expect(out).toMatch(/^listing\s+10\s+300\s+100\s+3\.0×\s+200\s+50\s+4\.0×\s+75%\s+50%$/m);
    expect(out).toMatch(/sum of the stages\s+400\s+150\s+2\.7×/);
    expect(out).toContain("the sum of the stages is 2.0× it, the floors' 0.8×");
    expect(out).toContain("reading: floor = a floor (NOT THE SAME WORK: 9 items, not 10)");
    expect(out).not.toContain("listing: floor = a floor (NOT");
  });
});

describe("each stage's harness on a small tree", () => {
  it("handles every file of the tree, in Mailroom's code and in its floor alike", async () => {
    const root = temp("mailroom-stages-ws-");
    const tree = generateIgniteTree(root, 200);
    const r = await runStages(root, temp("mailroom-stages-data-"), { whole: true, readOnceMs: 1 });
    const by = new Map(r.stages.map((s) => [s.stage, s]));
    expect([...by.keys()]).toEqual(["listing", "reading", "parsing", "building rows", "inserting rows", "building indexes", "settling threads", "full text"]);
    // A dead letter is one file holding two messages, and is left to the writer: it gets no row in the load.
    expect(r.files).toBe(tree.files);
    expect(r.files + r.deadLetters).toBe(tree.messages);
    for (const stage of ["listing", "reading", "parsing"]) expect(by.get(stage), stage).toMatchObject({ count: tree.files, floorCount: tree.files });
    const rows = tree.files - r.deadLetters;
    for (const stage of ["building rows", "inserting rows", "building indexes", "full text"]) expect(by.get(stage), stage).toMatchObject({ count: rows, floorCount: rows });
    expect(by.get("settling threads")).toMatchObject({ count: rows, floor: null });
    for (const s of r.stages) expect(s.mailroom.wallMs, s.stage).toBeGreaterThan(0);
    // The whole ingest journals every message, the dead letters' originals too.
    expect(r.whole?.messages).toBe(tree.messages);
    expect(r.whole?.fullText.wallMs).toBeGreaterThanOrEqual(r.whole?.listed.wallMs ?? Infinity);
  });
});
