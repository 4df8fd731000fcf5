// The wave-2 protocols end to end: IGNITE v2, shogun, workflow and KickLang trees, each its own
// MAILROOM_ROOT, read by a server of their own (the other specs count the IGNITE v3 fixture's
// agents and totals, which these trees would change). For each: its messages on the timeline with
// the protocol's own statuses, one message's detail, its thread, and an append shown live.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const PROTOCOLS = ["ignite-yaml", "shogun", "workflow", "kicklang"] as const;
/** Every message and document of the four fixtures (acks and log lines are not messages). */
const FIXTURE_MESSAGES = 52;

let dir: string;
let server: OwnServer;
const roots = {} as Record<(typeof PROTOCOLS)[number], string>;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-protocols-"));
  // One folder per fixture, named after it: a root's folder name names its sources.
  for (const p of PROTOCOLS) roots[p] = copyFixture(p, path.join(dir, p));
  server = await startOwnServer({ root: PROTOCOLS.map((p) => roots[p]).join(":"), data: path.join(dir, "data"), env: { MAILROOM_POLL_MS: "1000" } });
  await expect
    .poll(async () => {
      const res = await request.get(`${server.base}/api/stats`).catch(() => null);
      return res?.ok() ? ((await res.json()) as { totals: { messages: number } }).totals.messages : 0;
    }, { timeout: 90_000 })
    .toBeGreaterThanOrEqual(FIXTURE_MESSAGES);
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** For the lead's eyes only: set MAILROOM_E2E_SCREENS to a folder to keep one page per protocol. */
async function keepScreenshot(page: Page, name: string): Promise<void> {
  const into = process.env.MAILROOM_E2E_SCREENS;
  if (into) await page.screenshot({ path: path.join(into, `${name}.png`), fullPage: true });
}

function timelineRows(page: Page) {
  return page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");
}

async function expectStatuses(page: Page, statuses: readonly string[]): Promise<void> {
  for (const status of statuses) await expect(timelineRows(page).getByText(status, { exact: true }).first()).toBeVisible();
}

test("IGNITE v2: a leader's messages queued and delivered, a YAML message's structure and its own file", async ({ page }) => {
  await page.goto(`${server.base}/messages?q=agent:leader`);
  await expect(timelineRows(page)).toHaveCount(4);
  await expectStatuses(page, ["queued", "delivered"]);
  await keepScreenshot(page, "ignite-yaml-timeline");

  await timelineRows(page).filter({ hasText: "user_goal" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "user_goal" })).toBeVisible();
  await expect(page.getByText("queue/leader/processed/user_goal_1770261601512044.yaml", { exact: true })).toBeVisible();
  await expect(page.getByText(/first seen/).first()).toBeVisible();
  await page.getByRole("tab", { name: "Raw file" }).click();
  const raw = fs.readFileSync(path.join(roots["ignite-yaml"], "queue/leader/processed/user_goal_1770261601512044.yaml"), "utf8");
  await expect(page.locator("pre")).toHaveText(raw.trimEnd(), { useInnerText: true });
  await keepScreenshot(page, "ignite-yaml-message");

  // The dead letter holds the original message: its structure shows both.
  await page.goto(`${server.base}/messages?q=${encodeURIComponent("status:dead")}`);
  await timelineRows(page).getByRole("link", { name: "dead_letter" }).click();
  await expect(page.getByText("timeout after 3 retries")).toBeVisible();
  await expect(page.getByText("original_message:")).toBeVisible();

  // Listed with the others, its failure shown, with the actions its own page offers (requeued at the end of this file).
  await page.goto(`${server.base}/dead-letters`);
  const letter = page.getByRole("row").filter({ hasText: "task_assignment_1770261903611907.yaml" });
  await expect(letter).toContainText("timeout after 3 retries");
  await expect(letter.getByRole("button")).toHaveText(["Requeue", "Discard"]);
  await expect(letter.getByRole("checkbox")).toHaveCount(1);
});

test("shogun: karo's inbox unread and read, its commands, and the cmd_048 thread of inbox messages, tasks and reports", async ({ page }) => {
  await page.goto(`${server.base}/messages?q=agent:karo`);
  await expect(timelineRows(page)).toHaveCount(10);
  await expectStatuses(page, ["unread", "read", "pending", "in_progress", "done"]);
  await keepScreenshot(page, "shogun-timeline");

  await timelineRows(page).filter({ hasText: "cmd_048を書いた" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "cmd_new" })).toBeVisible();
  await expect(page.getByText("queue/inbox/karo.yaml", { exact: true })).toBeVisible();
  await expect(page.getByText("msg_20260206_101502_3fa1c2d9").first()).toBeVisible();
  await page.getByRole("tab", { name: "Raw file" }).click();
  // Its own entry of the inbox, not the whole file.
  await expect(page.locator("pre")).toContainText("cmd_048を書いた。実行せよ。");
  await expect(page.locator("pre")).not.toContainText("cmd_049");
  await keepScreenshot(page, "shogun-message");

  const thread = page.getByRole("region", { name: "Thread", exact: true });
  // karo, gunshi and the two ashigaru, and shogun who sent the command: task files name no sender.
  await expect(thread).toContainText("13 messages · 5 agents");
  await thread.getByRole("link", { name: "cmd_048" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "cmd_048" })).toBeVisible();
  await expect(page.getByText(/^13 messages between 5 agents/)).toBeVisible();
  const graph = page.getByTestId("thread-graph");
  await graph.getByRole("button", { name: "Fit the whole graph" }).click();
  for (const type of ["command", "cmd_new", "task_assigned", "report_received", "task", "report"]) {
    await expect(graph.getByRole("link", { name: new RegExp(`^${type},`) }).first()).toBeVisible();
  }
  await keepScreenshot(page, "shogun-thread");
});

test("workflow: channel messages processed, received, unacked and sent, an acked task's detail, and its task thread", async ({ page }) => {
  await page.goto(`${server.base}/messages?q=${encodeURIComponent("path:.claude/workflow/")}`);
  await expect(timelineRows(page)).toHaveCount(6);
  await expectStatuses(page, ["processed", "received", "unacked", "sent"]);
  await keepScreenshot(page, "workflow-timeline");

  await timelineRows(page).filter({ hasText: "agent_architecture" }).filter({ hasText: "processed" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "task_assign" })).toBeVisible();
  await expect(page.getByText("msg_20260125_143022_abc123de").first()).toBeVisible();
  await expect(page.getByText("task_001").first()).toBeVisible();
  await page.getByRole("tab", { name: "Raw file" }).click();
  await expect(page.locator("pre")).toContainText('"id": "msg_20260125_143022_abc123de"');
  await expect(page.locator("pre")).not.toContainText("progress_update");
  await keepScreenshot(page, "workflow-message");

  const thread = page.getByRole("region", { name: "Thread", exact: true });
  await thread.getByRole("link", { name: "orchestrate_20260125_143000_a1b2c3d4:task_001" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "orchestrate_20260125_143000_a1b2c3d4:task_001" })).toBeVisible();
  await expect(page.getByText(/^2 messages between 2 agents/)).toBeVisible();
  await page.getByRole("tab", { name: "Sequence" }).click();
  const sequence = page.getByTestId("thread-sequence");
  await expect(sequence.getByRole("link", { name: /: task_assign, orchestrator → agent_architecture/ })).toBeAttached();
  await expect(sequence.getByRole("link", { name: /: task_complete, agent_architecture → orchestrator/ })).toBeAttached();
  await keepScreenshot(page, "workflow-thread");
});

test("KickLang: requests answered and unanswered, an envelope's own line, its correlation chain, and its channel's page", async ({ page }) => {
  await page.goto(`${server.base}/messages?q=${encodeURIComponent("path:.kicklang/")}`);
  await expect(timelineRows(page)).toHaveCount(11);
  await expectStatuses(page, ["answered", "unanswered", "sent"]);
  await keepScreenshot(page, "kicklang-timeline");

  await timelineRows(page).filter({ hasText: "Task ID: task_003" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Command" })).toBeVisible();
  await expect(page.getByText(".kicklang/channels/command/dispatch.jsonl", { exact: true })).toBeVisible();
  await page.getByRole("tab", { name: "Raw file" }).click();
  const line = fs.readFileSync(path.join(roots.kicklang, ".kicklang/channels/command/dispatch.jsonl"), "utf8").split("\n")[0]!;
  await expect(page.locator("pre")).toHaveText(line);
  await keepScreenshot(page, "kicklang-message");

  // The thread's size reads the same on the message and on the thread: who sent and who received.
  const thread = page.getByRole("region", { name: "Thread", exact: true });
  await expect(thread).toContainText("4 messages · 2 agents");
  await thread.getByRole("link", { name: "d130c0ae-e8ef-4937-9851-2321c99322a5" }).click();
  await expect(page.getByText(/^4 messages between 2 agents/)).toBeVisible();
  const graph = page.getByTestId("thread-graph");
  await graph.getByRole("button", { name: "Fit the whole graph" }).click();
  await expect(graph.getByRole("link", { name: /^Command, Orchestrator → WePlan/ })).toBeVisible();
  await expect(graph.getByRole("link", { name: /^Info, WePlan → Orchestrator/ })).toHaveCount(3);
  await keepScreenshot(page, "kicklang-thread");

  // A channel is the agent that holds its envelopes; its name has a "/" and a non-ASCII mark.
  await graph.getByRole("link", { name: /^Command,/ }).click();
  await page.getByRole("link", { name: "⫻command/dispatch" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "⫻command/dispatch" })).toBeVisible();
  await expect(timelineRows(page)).toHaveCount(3);
});

test("the overview lists each protocol's agents, each opening its page, and none without a name", async ({ page }) => {
  await page.goto(`${server.base}/`);
  // One table per protocol, each with its own columns.
  const agents = page.getByRole("table", { name: /agents and their counts/ });
  await expect(page.getByRole("table", { name: /workflow agents/ }).getByRole("columnheader", { name: "Unacked" })).toBeVisible();
  for (const agent of ["leader", "karo", "agent_security", "⫻command/dispatch"]) {
    await expect(agents.getByRole("link", { name: agent, exact: true }).first()).toBeVisible();
  }
  // A workflow's logs and registry belong to no agent: they make no row.
  await expect(agents.getByRole("rowheader").filter({ hasNot: page.getByRole("link") })).toHaveCount(0);
  await keepScreenshot(page, "overview");
});

test("the thread list names who sent and who received, not the channel files hold them in, and the protocol each thread speaks", async ({ page }) => {
  await page.goto(`${server.base}/threads`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "ab56b990-2d6d-4e8f-90be-37ad76c95a7c" }) });
  await expect(row).toContainText("RoleDefiner, WePlan");
  await expect(row).not.toContainText("⫻");
  await expect(row.getByTitle(/^Protocol: KickLang/)).toBeVisible();
  const command = page.getByRole("row").filter({ has: page.getByRole("link", { name: "cmd_048", exact: true }) });
  await expect(command.getByTitle(/^Protocol: /)).toHaveText(/shogun/);
  // One thread's page says it too.
  await command.getByRole("link", { name: "cmd_048", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "cmd_048" })).toBeVisible();
  await expect(page.locator("header").getByTitle(/^Protocol: /)).toHaveText(/shogun/);
});

test("an envelope appended to a KickLang channel shows up in the open timeline, and its answer settles it", async ({ page }) => {
  await page.goto(`${server.base}/messages?q=${encodeURIComponent("path:.kicklang/")}`);
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  await expect(timelineRows(page)).toHaveCount(11);
  // Marks this document: a reload or navigation would lose it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  const id = `e2e-${Date.now()}`;
  const now = Date.now();
  const append = (channel: string, envelope: Record<string, unknown>) =>
    fs.appendFileSync(path.join(roots.kicklang, ".kicklang/channels", `${channel}.jsonl`), `${JSON.stringify(envelope)}\n`);
  append("command/dispatch", {
    id, timestamp: new Date(now).toISOString(), sender: "Orchestrator", receiver: "Reviewer", type: "Command", channel: "⫻command/dispatch",
    content: "⫻command/dispatch:task/009\nTask ID: task_e2e_live\nContext: Review the live append.", correlation_id: null,
  });
  const indicator = page.getByRole("button", { name: "1 new message" });
  await expect(indicator).toBeVisible();
  await indicator.click();
  const request = timelineRows(page).filter({ hasText: "task_e2e_live" });
  await expect(request.getByText("unanswered", { exact: true })).toBeVisible();

  append("report/status", {
    id: `${id}-accepted`, timestamp: new Date(now + 1000).toISOString(), sender: "Reviewer", receiver: "Orchestrator", type: "Info", channel: "⫻report/status",
    content: "⫻report/status:task_e2e_live/001\nAccepted", correlation_id: id,
  });
  await expect(request.getByText("answered", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("an IGNITE v2 dead letter is requeued from the dead-letters page, as its own page offers", async ({ page }) => {
  // The queue its original failed in, as a live v2 workspace has it (the fixture keeps only the letter).
  fs.mkdirSync(path.join(roots["ignite-yaml"], "queue", "ignitian_2"), { recursive: true });
  await page.goto(`${server.base}/dead-letters`);
  const row = page.getByRole("row").filter({ hasText: "task_assignment_1770261903611907.yaml" });
  await expect(row.getByRole("checkbox")).toBeVisible();
  await row.getByRole("button", { name: "Requeue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeued" })).toContainText("queue/ignitian_2/");
  await expect.poll(() => fs.readdirSync(path.join(roots["ignite-yaml"], "queue", "ignitian_2")).length).toBe(1);
  // Its undo, on the row: the copy out of the queue (to the archive), the letter back where it was.
  await row.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeue undone" })).toContainText("queue/dead_letter/");
  await expect.poll(() => fs.readdirSync(path.join(roots["ignite-yaml"], "queue", "ignitian_2")).length).toBe(0);
  expect(fs.existsSync(path.join(roots["ignite-yaml"], "queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml"))).toBe(true);
});

test("a dead IGNITE v2 message's own page links its dead letter and requeues it through the letter", async ({ page, request }) => {
  const v2 = roots["ignite-yaml"];
  const name = "task_assignment_1770269999000001";
  const original = [
    "type: task_assignment", "from: coordinator", "to: ignitian_1", 'timestamp: "2026-02-05T13:00:00+09:00"', "priority: high",
    "payload:", '  task_id: "task_e2e_dead"', '  title: "死んだタスク"', "status: processing", 'processed_at: "2026-02-05T13:00:05+09:00"', "retry_count: 3", "",
  ].join("\n");
  const processed = path.join(v2, "queue", "ignitian_1", "processed", `${name}.yaml`);
  fs.mkdirSync(path.dirname(processed), { recursive: true });
  fs.writeFileSync(processed, original);
  const journaled = async () => ((await (await request.get(`${server.base}/api/messages?q=${encodeURIComponent(`mid:${name}`)}`)).json()) as { items: { key: string; status: string }[] }).items;
  await expect.poll(async () => (await journaled()).length, { timeout: 20_000 }).toBe(1);
  // The monitor gives up: the letter is written, then the original deleted.
  const letter = [
    "type: dead_letter", 'timestamp: "2026-02-05T13:20:00+09:00"', `original_file: "${name}.yaml"`,
    "failure_info:", "  retry_count: 3", "  max_retries: 3", '  last_error: "timeout after 3 retries"', '  moved_at: "2026-02-05T13:20:00+09:00"',
    "original_message: |", ...original.trimEnd().split("\n").map((l) => `    ${l}`), "",
  ].join("\n");
  fs.writeFileSync(path.join(v2, "queue", "dead_letter", `${name}_dlq_1770270000.yaml`), letter);
  fs.rmSync(processed);
  await expect.poll(async () => (await journaled()).find((m) => m.status === "dead")?.key ?? null, { timeout: 20_000 }).not.toBeNull();
  const key = (await journaled()).find((m) => m.status === "dead")!.key;

  await page.goto(`${server.base}/messages/${encodeURIComponent(key)}`);
  await expect(page.getByText("file gone — from journal")).toBeVisible();
  await expect(page.getByRole("link", { name: "its dead letter" })).toHaveAttribute("href", /_dlq_1770270000/);
  await page.getByRole("button", { name: "Requeue", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeued" })).toContainText("queue/ignitian_1/");
  await expect.poll(() => fs.existsSync(path.join(v2, "queue", "ignitian_1", `${name}.yaml`))).toBe(true);
  expect(fs.existsSync(path.join(v2, "queue", "dead_letter", `${name}_dlq_1770270000.yaml`))).toBe(false);
});
