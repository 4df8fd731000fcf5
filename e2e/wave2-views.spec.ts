// A workflow and a shogun workspace, seen as a user sees them: the overview's health strip names
// the workflow's agents, /logs tails a workflow log, and shogun's dashboard has a page of its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const ID = "orchestrate_20260125_143000_a1b2c3d4";
let dir: string;
let server: OwnServer;
let beating: NodeJS.Timeout;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-wave2-"));
  const flow = copyFixture("workflow", path.join(dir, "flow"));
  const board = copyFixture("shogun", path.join(dir, "board"));
  // One agent keeps beating for as long as the spec runs; the fixture's others stopped in January.
  const heartbeat = path.join(flow, ".claude", "workflow", ID, "state", "heartbeat", "agent_security.ts");
  const beat = () => fs.writeFileSync(heartbeat, new Date().toISOString());
  beat();
  beating = setInterval(beat, 2000);
  // A log that is a link out of the workspace: never read, said so.
  const actions = path.join(flow, ".claude", "workflow", ID, "logs", "actions.jsonl");
  fs.writeFileSync(path.join(dir, "elsewhere.jsonl"), '{"secret":true}\n');
  fs.rmSync(actions);
  fs.symlinkSync(path.join(dir, "elsewhere.jsonl"), actions);
  server = await startOwnServer({ root: `${flow}:${board}`, data: path.join(dir, "data") });
});

test.afterAll(() => {
  clearInterval(beating);
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the overview names workflow agents healthy or unresponsive; /logs tails a workflow log and links the dashboard", async ({ page }) => {
  expect((await page.request.get(`${server.base}/api/health`)).ok(), server.output()).toBe(true);
  await page.goto(`${server.base}/`);
  const agents = page.getByRole("region", { name: "Team health" }).getByRole("list", { name: "Agents" });
  await expect(agents.getByText("agent_security: healthy")).toBeVisible();
  await expect(agents.getByText("agent_cognitive: unresponsive")).toBeVisible();
  // Two protocols in one console: each recent message says which it speaks.
  const recent = page.getByRole("table", { name: "The latest messages" });
  await expect(recent.getByTitle(/^Protocol: /).first()).toBeVisible();

  await page.goto(`${server.base}/logs`);
  await page.getByLabel("Log").selectOption({ label: `flow-workflow · ${ID}.errors.jsonl` });
  await expect(page.getByLabel(`${ID}.errors.jsonl, last lines`)).toContainText("heartbeat timeout (>30s)");

  await page.getByRole("link", { name: "board-shogun · dashboard.md" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "dashboard.md" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "📊 戦況報告" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "README Quick Start 検証" })).toBeVisible();
});

test("a log that is a link is refused with a 409 that says so, not a server error", async ({ request }) => {
  const res = await request.get(`${server.base}/api/logs/flow-workflow/${ID}.actions.jsonl`);
  expect(res.status(), server.output()).toBe(409);
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe("not_a_file");
  expect(error.message).toContain("link");
  expect(JSON.stringify(error)).not.toContain("secret");
});
