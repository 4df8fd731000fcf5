import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { discoverSources } from "@/lib/ingest/sources";
import { seededRandom } from "./random";
import { ingestBack } from "./read-back";
import { DEMO_PROTOCOLS, prepareDemoTeam } from "./teams";

let parent: string;
beforeEach(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-demo-teams-"));
});
afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

it("lays out one workspace per protocol, each found as its protocol's one source, with a history to show", async () => {
  const prepared = [];
  for (const protocol of DEMO_PROTOCOLS) prepared.push(await prepareDemoTeam(protocol, parent, { random: seededRandom(1) }));
  expect(prepared.map((p) => path.basename(p.workspace))).toEqual(["ignite", "ignite-v2", "shogun", "workflow", "kicklang"]);
  const sources = await discoverSources(prepared.map((p) => p.workspace));
  expect(sources.map((s) => [s.id, s.error])).toEqual([
    ["ignite-ignite", null], ["ignite-v2-ignite-yaml", null], ["shogun-shogun", null], ["workflow-workflow", null], ["kicklang-kicklang", null],
  ]);
  for (const p of prepared.filter((x) => x.protocol !== "ignite")) {
    const { items } = await ingestBack(p.workspace);
    expect([p.protocol, items.length > 5]).toEqual([p.protocol, true]);
    // The history is over before the live team starts.
    for (const m of items) expect(Date.parse(m.date ?? "")).toBeLessThan(Date.now());
  }
});

it("continues each history with a live team that starts where it stopped", async () => {
  const shogun = await prepareDemoTeam("shogun", parent, { random: seededRandom(2) });
  // Fast, on the real clock: its first command comes a second (at speed 1) after it starts.
  const team = shogun.live(50);
  while (team.loops < 1) {
    await team.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  team.stop();
  const commands = fs.readFileSync(path.join(shogun.workspace, "queue", "shogun_to_karo.yaml"), "utf8");
  // The history's two commands are kept, and the live team's first is the next.
  expect(commands.match(/id: cmd_\d+/g)).toEqual(["id: cmd_100", "id: cmd_101", "id: cmd_102"]);
});
