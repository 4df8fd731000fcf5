import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { shogunReadSide } from "@/lib/protocols/shogun";
import { OVERFLOW_AT } from "../inbox-format";
import { planSend, run } from "../writer";
import { ingestBack, readBack, runTeamFor } from "@/lib/demo/read-back";
import { seededRandom } from "@/lib/demo/random";
import { FakeClock } from "@/lib/demo/testing";
import { ShogunTeam } from "./team";

const START = new Date(2026, 10, 26, 9, 0, 0).getTime();
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-shogun-team-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("plays commands, tasks, reports and inbox writes under the locks, with a failed subtask redone and karo's inbox overflowing", async () => {
  const clock = new FakeClock(START);
  const team = new ShogunTeam({ root, random: seededRandom(9), now: clock.now, onError: (e) => { throw e; } });
  const karoIds = new Set<string>();
  let karoMax = 0;
  const reportStatuses = new Set<string>();
  const redone = new Set<string>();
  // The console writes into an inbox while the team does: both take the same locks.
  const consoleSends: Promise<{ ids: string[] }>[] = [];
  let ticks = 0;
  await runTeamFor(team, clock, 8 * 60_000, 500, () => {
    if (ticks++ % 8 !== 0) return;
    const { entries } = readBack(shogunReadSide, root);
    const karo = entries.filter((e) => e.agent === "karo" && e.folder === "inbox");
    karoMax = Math.max(karoMax, karo.length);
    for (const e of karo) if (e.messageId) karoIds.add(e.messageId);
    for (const e of entries) if (e.type === "report") reportStatuses.add(e.status);
    for (const e of entries) if (e.type === "task" && (e.data as { redo_of?: string } | null)?.redo_of) redone.add(`${e.messageId} ${e.status}`);
    if (ticks % 40 === 1) {
      consoleSends.push(planSend(root, { to: "ashigaru2", from: "mailroom", type: "wake_up", content: `起きよ (${ticks})` }).then((p) => run(root, p)));
    }
  });
  team.stop();
  const consoleIds = (await Promise.all(consoleSends)).flatMap((r) => r.ids);
  expect(team.loops).toBeGreaterThanOrEqual(12);

  const { entries, fileProblems } = readBack(shogunReadSide, root);
  expect(fileProblems).toEqual([]);
  expect(entries.flatMap((e) => e.problems)).toEqual([]);
  expect(entries.every((e) => e.date !== null)).toBe(true);
  // Nothing the console wrote was lost among the team's writes.
  const ashigaru2 = new Set(entries.filter((e) => e.agent === "ashigaru2" && e.folder === "inbox").map((e) => e.messageId));
  expect(consoleIds.length).toBeGreaterThanOrEqual(5);
  for (const id of consoleIds) expect(ashigaru2).toContain(id);

  // Karo read everything but the last few seconds' messages; its inbox overflowed and was trimmed.
  const older = (e: { date: string | null }) => Date.parse(e.date ?? "") < clock.ms - 20_000;
  const inbox = entries.filter((e) => e.kind === "message" && e.agent === "karo");
  for (const e of inbox.filter(older)) expect([e.messageId, e.status]).toEqual([e.messageId, "read"]);
  expect(karoIds.size).toBeGreaterThan(OVERFLOW_AT);
  expect(karoMax).toBeLessThanOrEqual(OVERFLOW_AT);
  expect(inbox.length).toBeLessThan(karoIds.size);

  // Commands are done once their reports are in; a failed subtask was redone by another ashigaru.
  const commands = entries.filter((e) => e.type === "command");
  expect(commands.length).toBe(team.loops);
  expect(commands.filter((c) => c.status === "done").length).toBeGreaterThanOrEqual(team.loops - 2);
  expect(reportStatuses).toEqual(new Set(["done", "failed"]));
  expect([...redone].some((t) => /^subtask_\d{3}a2 done$/.test(t))).toBe(true);
  // Every inbox message names its command: the console threads it there.
  for (const e of entries.filter((x) => x.kind === "message" && x.from !== "mailroom")) expect(e.threadKey).toMatch(/^cmd_\d{3}$/);

  const { protocols, items } = await ingestBack(root);
  expect(protocols).toEqual(["shogun"]);
  const status = new Map(items.map((m) => [m.messageId, m.status]));
  for (const e of entries.filter((x) => x.kind === "message")) expect([e.messageId, status.get(e.messageId)]).toEqual([e.messageId, e.status]);
});
