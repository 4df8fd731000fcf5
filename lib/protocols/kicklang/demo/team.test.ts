import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { kicklangReadSide } from "@/lib/protocols/kicklang";
import { ingestBack, readBack, runTeamFor } from "@/lib/demo/read-back";
import { seededRandom } from "@/lib/demo/random";
import { FakeClock } from "@/lib/demo/testing";
import { KicklangTeam } from "./team";

const START = Date.parse("2026-11-26T09:00:00Z");
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-kicklang-team-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("plays dispatch → Accepted → artifact → Completed loops, with one role violation and one missing correlation each four", async () => {
  const clock = new FakeClock(START);
  const team = new KicklangTeam({ root, random: seededRandom(3), now: clock.now, onError: (e) => { throw e; } });
  await runTeamFor(team, clock, 4 * 60_000, 500);
  team.stop();
  expect(team.loops).toBeGreaterThanOrEqual(8);

  const { entries, fileProblems } = readBack(kicklangReadSide, root);
  expect(fileProblems).toEqual([]);
  const problemsOf = (code: string) => entries.filter((e) => e.problems.some((p) => p.code === code));
  // Only the two planned failures break a rule.
  expect(entries.flatMap((e) => e.problems.map((p) => p.code)).every((c) => c === "rule:role-authorization" || c === "rule:correlation")).toBe(true);

  const dispatches = entries.filter((e) => e.agent === "⫻command/dispatch" && e.from === "Orchestrator");
  expect(dispatches.length).toBe(team.loops);
  const finished = dispatches.slice(0, -1); // the last loop may still be running
  for (const d of finished) {
    expect(d.status).toBe("answered");
    const thread = entries.filter((e) => e.threadKey === d.messageId);
    const lines = thread.map((e) => `${e.agent} ${e.body.split("\n")[1] ?? ""}`);
    expect(lines).toContain("⫻report/status Completed");
    expect(thread.some((e) => e.agent === "⫻report/artifact")).toBe(true);
  }

  // The role rule: a role dispatching itself, flagged, recorded as confirmed, left unanswered, and alerted on.
  const violations = problemsOf("rule:role-authorization");
  expect(violations.length).toBeGreaterThanOrEqual(2);
  for (const v of violations) {
    expect(v.from).not.toBe("Orchestrator");
    expect(v.status).toBe("unanswered");
    expect(v.data).toMatchObject({ confirmed_rules: ["role-authorization"] });
  }
  expect(entries.filter((e) => e.agent === "⫻alert/violation")).toHaveLength(violations.length);

  // The missing correlation: an "Accepted" that names no dispatch.
  const uncorrelated = problemsOf("rule:correlation");
  expect(uncorrelated.length).toBeGreaterThanOrEqual(1);
  for (const u of uncorrelated) expect([u.agent, u.correlationId, u.body.split("\n")[1]]).toEqual(["⫻report/status", null, "Accepted"]);

  // The console lists every envelope, with the same statuses.
  const { protocols, items } = await ingestBack(root);
  expect(protocols).toEqual(["kicklang"]);
  expect(items).toHaveLength(entries.length);
  const status = new Map(items.map((m) => [m.messageId, m.status]));
  for (const e of entries) expect([e.messageId, status.get(e.messageId)]).toEqual([e.messageId, e.status]);
});
