// Each wave-2 read side end to end on its whole fixture tree, as the core will drive it: detect
// the root, place every file, read the placed ones, resolve; every status is one it declares.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import { igniteYamlReadSide } from "./ignite-yaml";
import { kicklangReadSide } from "./kicklang";
import type { ProtocolReadSide } from "./layout";
import { shogunReadSide } from "./shogun";
import { workflowReadSide } from "./workflow";

function filesUnder(root: string, dir = ""): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = dir === "" ? d.name : `${dir}/${d.name}`;
    return d.isDirectory() ? filesUnder(root, rel) : d.isFile() ? [rel] : [];
  });
}

// Entries: IGNITE v2 one per file; shogun 14 inbox/archive messages + 9 documents; workflow 6
// messages + 5 acks + 12 log records; KickLang 11 envelopes.
const CASES: Array<[string, ProtocolReadSide, string, number]> = [
  ["ignite-yaml", igniteYamlReadSide, fixturePath("ignite-yaml", "workspace"), 12],
  ["shogun", shogunReadSide, fixturePath("shogun"), 14 + 9],
  ["workflow", workflowReadSide, fixturePath("workflow"), 6 + 5 + 12],
  ["kicklang", kicklangReadSide, fixturePath("kicklang"), 11],
];

describe.each(CASES)("%s read side on its fixture", (_name, side, root, entryCount) => {
  it("detects, places, reads and resolves every file; every status is declared", async () => {
    expect(await side.detect(root)).toMatchObject({ protocol: side.protocol });
    const declared = new Set(side.statuses.map((s) => s.id));
    const placed = filesUnder(root).filter((rel) => side.place(rel) !== null);
    const reads = placed.map((rel) => side.read(rel, fs.readFileSync(path.join(root, rel)), { utcOffsetMinutes: 540 }));
    expect(reads.flatMap((r) => r.problems)).toEqual([]);
    const entries = side.resolve(reads.flatMap((r) => r.entries));
    expect(entries).toHaveLength(entryCount);
    expect(entries.filter((e) => !declared.has(e.status)).map((e) => e.status)).toEqual([]);
  });
});

describe("which files only grow", () => {
  it("is the streams of workflow and KickLang, read from their last offset", () => {
    const place = (side: ProtocolReadSide, rel: string) => side.appendOnly(side.place(rel)!);
    const wf = ".claude/workflow/w1";
    expect([`${wf}/channel/broadcast.jsonl`, `${wf}/channel/agents/a.ack`, `${wf}/logs/events.jsonl`].map((p) => place(workflowReadSide, p))).toEqual([true, true, true]);
    expect([`${wf}/state/agents.json`, `${wf}/state/heartbeat/a.ts`].map((p) => place(workflowReadSide, p))).toEqual([false, false]);
    expect(place(kicklangReadSide, ".kicklang/channels/report/status.jsonl")).toBe(true);
    expect(place(shogunReadSide, "queue/inbox/karo.yaml")).toBe(false);
    expect(place(igniteYamlReadSide, "queue/leader/x.yaml")).toBe(false);
  });
});
