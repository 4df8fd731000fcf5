import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { igniteYamlReadSide } from "@/lib/protocols/ignite-yaml";
import { ingestBack, readBack, runTeamFor } from "@/lib/demo/read-back";
import { seededRandom } from "@/lib/demo/random";
import { FakeClock, walk } from "@/lib/demo/testing";
import { IgniteYamlTeam } from "./team";

const START = Date.parse("2026-11-26T09:00:00+09:00");
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ignite-yaml-team-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const FLOW = [
  "user_goal", "strategy_request", "strategy_response", "task_list", "task_assignment", "task_completed",
  "evaluation_request", "evaluation_result", "progress_update", "dead_letter", "escalation",
];

it("plays goals in v2 YAML: the monitor's moves, retries, a dead letter and its escalation", async () => {
  const clock = new FakeClock(START);
  const team = new IgniteYamlTeam({ root, random: seededRandom(42), now: clock.now, deleteProcessed: false, onError: (e) => { throw e; } });
  const seen = new Set<string>();
  let ticks = 0;
  await runTeamFor(team, clock, 4 * 60_000, 250, () => {
    if (ticks++ % 4 !== 0) return;
    for (const e of readBack(igniteYamlReadSide, root).entries) seen.add(`${e.folder} ${e.type} ${e.status}`);
    for (const rel of walk(path.join(root, "queue"))) seen.add(rel.replace(/\d{10,16}/g, (d) => `#${d.length}`));
  });
  team.stop();
  expect(team.loops).toBeGreaterThanOrEqual(2);
  // A silent ignitian's assignment waited in its queue as retrying, between timeouts.
  expect(seen).toContain("queue task_assignment retrying");
  // The escalation lasted one poll under its seconds name, then was renamed and picked up.
  expect(seen).toContain("leader/escalation_#10.yaml");
  expect(seen).toContain("leader/processed/escalation_#16.yaml");

  const { entries, fileProblems } = readBack(igniteYamlReadSide, root);
  expect(fileProblems).toEqual([]);
  expect(entries.flatMap((e) => e.problems)).toEqual([]);
  // One goal at a time: the next starts only once the last one's messages have all been handled.
  const goals = entries.filter((e) => e.type === "user_goal").map((e) => Date.parse(e.date ?? "")).sort((a, b) => a - b);
  expect(goals).toHaveLength(team.loops);
  for (let i = 1; i < goals.length; i++) expect(goals[i]! - goals[i - 1]!).toBeGreaterThan(20_000);
  const types = new Set(entries.map((e) => e.type));
  for (const type of FLOW) expect(types).toContain(type);
  // Everything handled is delivered, with its timestamp; only the recent and the silent are not.
  for (const e of entries) expect([e.messageId, e.date === null]).toEqual([e.messageId, false]);
  expect(entries.filter((e) => e.folder === "processed" && e.status === "delivered").length).toBeGreaterThan(20);

  // The dead letter holds its original after three retries; the original is gone from the queues.
  const dead = entries.filter((e) => e.status === "dead");
  expect(dead.length).toBeGreaterThanOrEqual(1);
  for (const d of dead) {
    expect(d.retryCount).toBe(3);
    const held = d.links.find((l) => l.kind === "holds")?.targetId;
    expect(held).toMatch(/^task_assignment_\d{16}$/);
    expect(entries.some((e) => e.messageId === held)).toBe(false);
    expect(d.data).toMatchObject({ original_message: { type: "task_assignment", status: "processing" } });
  }
  const escalations = entries.filter((e) => e.type === "escalation");
  expect(escalations).toHaveLength(dead.length);
  for (const e of escalations) expect([e.from, e.priority]).toEqual(["queue_monitor", "critical"]);
  // The other silent ignitian came back after one retry.
  expect(entries.some((e) => e.type === "task_assignment" && e.retryCount === 1 && e.status === "delivered")).toBe(true);

  const { protocols, items } = await ingestBack(root);
  expect(protocols).toEqual(["ignite-yaml"]);
  expect(items).toHaveLength(entries.length);
  const status = new Map(items.map((m) => [m.messageId, m.status]));
  for (const e of entries) expect([e.messageId, status.get(e.messageId)]).toEqual([e.messageId, e.status]);
});
