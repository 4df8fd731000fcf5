import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { agentHealth, readHeartbeat, readRegistry, workflowReadSide, WORKFLOW_DIR } from "@/lib/protocols/workflow";
import { ingestBack, readBack, runTeamFor } from "@/lib/demo/read-back";
import { seededRandom } from "@/lib/demo/random";
import { FakeClock } from "@/lib/demo/testing";
import { SILENT_AGENT, WORKFLOW_AGENTS, WorkflowTeam } from "./team";

const START = Date.parse("2026-11-26T09:00:00Z");
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-workflow-team-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("assigns tasks with acks, checkpoints everyone, and lets one agent go silent, unresponsive and replaced", async () => {
  const clock = new FakeClock(START);
  const team = new WorkflowTeam({ root, random: seededRandom(5), now: clock.now, onError: (e) => { throw e; } });
  const wf = path.join(root, ...WORKFLOW_DIR.split("/"), team.workflowId);
  // The console's liveness, from the heartbeat files and the registry, as the run goes.
  const healthSeen = new Set<string>();
  // The messages seen stuck: unacked past their due time.
  const stuckSeen = new Set<string | null>();
  let ticks = 0;
  await runTeamFor(team, clock, 4 * 60_000, 500, () => {
    if (ticks++ % 4 !== 0 || !fs.existsSync(path.join(wf, "state", "agents.json"))) return;
    for (const e of readBack(workflowReadSide, root).entries) if (e.status === "unacked" && e.dueAt && Date.parse(e.dueAt) < clock.ms) stuckSeen.add(e.messageId);
    const heartbeats = Object.fromEntries(WORKFLOW_AGENTS.map((a) => [a, readHeartbeat(fs.readFileSync(path.join(wf, "state", "heartbeat", `${a}.ts`)))]));
    const registry = readRegistry(fs.readFileSync(path.join(wf, "state", "agents.json")));
    for (const h of agentHealth({ heartbeats, registry, now: clock.now() })) healthSeen.add(`${h.agent} ${h.health} ${h.registryStatus}`);
  });
  team.stop();
  expect(team.loops).toBeGreaterThanOrEqual(10);
  expect(healthSeen).toContain(`${SILENT_AGENT} unresponsive unresponsive`);
  expect(healthSeen).toContain(`${SILENT_AGENT} alive registered`);
  for (const a of WORKFLOW_AGENTS.filter((x) => x !== SILENT_AGENT)) expect([...healthSeen].filter((h) => h.startsWith(`${a} `))).toEqual([`${a} alive registered`]);

  const { entries, fileProblems } = readBack(workflowReadSide, root);
  expect(fileProblems).toEqual([]);
  expect(entries.flatMap((e) => e.problems)).toEqual([]);
  const messages = entries.filter((e) => e.kind === "message");
  const assigns = messages.filter((e) => e.type === "task_assign");
  const done = new Set(messages.filter((e) => e.type === "task_complete").map((e) => e.threadKey));
  // Every assignment a live agent got is acked to processed, and its task completed (but those of the last 20 s, still running).
  const older = (e: { date: string | null }) => Date.parse(e.date ?? "") < clock.ms - 20_000;
  const settled = assigns.filter((e) => older(e) && (e.to[0] !== SILENT_AGENT || e.status !== "unacked"));
  expect(settled.length).toBeGreaterThanOrEqual(8);
  for (const a of settled) expect([a.messageId, a.status, done.has(a.threadKey)]).toEqual([a.messageId, "processed", true]);
  // The silent agent's task: not acked while it was silent (stuck once due, 5 s after it was sent), then given to
  // another agent, who finished it. Back, the silent agent caught up and acknowledged it: stuck for a while, not for good.
  const reassigned = (e: (typeof assigns)[number]) => assigns.find((x) => x.threadKey === e.threadKey && x !== e && (x.data as { payload?: { reassigned_from?: string } } | null)?.payload?.reassigned_from === SILENT_AGENT);
  const lost = assigns.filter((e) => e.to[0] === SILENT_AGENT && reassigned(e));
  expect(lost.length).toBeGreaterThanOrEqual(1);
  const caughtUp = (e: { date: string | null }) => Date.parse(e.date ?? "") < clock.ms - 70_000;
  expect(lost.some(caughtUp)).toBe(true);
  for (const l of lost) {
    expect(stuckSeen).toContain(l.messageId);
    expect(reassigned(l)?.status).toBe("processed");
    // Back within the minute of its silence, it has answered within a few seconds more.
    if (caughtUp(l)) expect([l.messageId, l.status]).toEqual([l.messageId, "processed"]);
  }
  expect(entries.some((e) => e.kind === "log" && e.type === "agent_unresponsive" && e.agent === SILENT_AGENT)).toBe(true);
  // Checkpoints go to everyone; each live agent's ack settles them, and they answer.
  const checkpoints = messages.filter((e) => e.type === "checkpoint_request");
  expect(checkpoints.length).toBeGreaterThanOrEqual(3);
  for (const c of checkpoints.filter(older)) expect(c.status).toBe("processed");
  expect(messages.filter((e) => e.type === "checkpoint_response").length).toBeGreaterThanOrEqual(2 * checkpoints.filter(older).length);

  const { protocols, items } = await ingestBack(root);
  expect(protocols).toEqual(["workflow"]);
  const status = new Map(items.map((m) => [m.messageId, m.status]));
  for (const m of messages) expect([m.messageId, status.get(m.messageId)]).toEqual([m.messageId, m.status]);
});
