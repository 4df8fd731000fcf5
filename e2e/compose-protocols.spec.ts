// Compose for IGNITE v2, shogun, workflow and KickLang from the UI, on a server of its own that
// reads one copy of each fixture (the other specs count the IGNITE v3 fixture's messages): the
// form becomes the source's protocol's, the preview shows the bytes, Send writes them (visible on
// disk) and the message opens from the result.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { load } from "js-yaml";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const PROTOCOLS = ["ignite-yaml", "shogun", "workflow", "kicklang"] as const;
type Protocol = (typeof PROTOCOLS)[number];

let dir: string;
let server: OwnServer;
const roots = {} as Record<Protocol, string>;

test.beforeAll(async ({ request }) => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-compose-"));
  // One folder per fixture, named after it: source ids are `<folder>-<protocol>`.
  for (const p of PROTOCOLS) roots[p] = copyFixture(p, path.join(dir, p));
  server = await startOwnServer({ root: PROTOCOLS.map((p) => roots[p]).join(":"), data: path.join(dir, "data"), env: { MAILROOM_POLL_MS: "1000" } });
  await expect.poll(async () => (await request.get(`${server.base}/api/sources`).catch(() => null))?.ok() ?? false, { timeout: 90_000 }).toBe(true);
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Open Compose on the protocol's source. */
async function composeOn(page: Page, protocol: Protocol): Promise<string> {
  await page.goto(`${server.base}/compose`);
  await page.getByLabel("Source", { exact: true }).selectOption(`${protocol}-${protocol}`);
  return roots[protocol];
}

/** Send, then the result's link: its path (returned); following it opens the new message. */
async function send(page: Page, expectedPath: string | RegExp): Promise<string> {
  await page.getByRole("button", { name: "Send" }).click();
  const result = page.getByTestId("send-result").filter({ hasText: "Sent 1 message" });
  await expect(result).toBeVisible();
  const link = result.getByRole("link", { name: expectedPath });
  const rel = (await link.textContent()) ?? "";
  await link.click();
  await expect(page).toHaveURL(/\/messages\//);
  await expect(page.getByText(/composed — Sent from Mailroom/)).toBeVisible();
  return rel;
}

test("shogun: a message into karo's inbox, previewed as the whole new inbox, on disk unread", async ({ page }) => {
  const root = await composeOn(page, "shogun");
  // An empty Content is no mistake before anything is typed in it.
  await expect(page.getByLabel("Content", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("To", { exact: true }).fill("karo");
  await page.getByLabel("From", { exact: true }).fill("ashigaru2");
  await page.getByLabel("Type", { exact: true }).fill("report_received");
  await page.getByLabel("Content", { exact: true }).fill("足軽2号、e2e より報告。");
  const preview = page.locator("figure").filter({ hasText: "queue/inbox/karo.yaml" });
  await expect(preview.locator("pre")).toContainText("content: 足軽2号、e2e より報告。");
  await send(page, "queue/inbox/karo.yaml");
  const inbox = load(fs.readFileSync(path.join(root, "queue/inbox/karo.yaml"), "utf8")) as { messages: Record<string, unknown>[] };
  expect(inbox.messages.find((m) => m.content === "足軽2号、e2e より報告。")).toMatchObject({ from: "ashigaru2", read: false, type: "report_received" });
});

test("workflow: a task_assign from its template, one JSON line with requires_ack", async ({ page }) => {
  const root = await composeOn(page, "workflow");
  await page.getByLabel("To", { exact: true }).fill("agent_security");
  await expect(page.getByLabel("Payload (JSON)")).toHaveValue(/"task_id": "task_001"/);
  await page.getByLabel("Payload (JSON)").fill("{ not json");
  await expect(page.locator("#compose-payload-error")).toHaveText(/is not valid JSON/);
  await page.getByLabel("Payload (JSON)").fill('{"task_id": "task_e2e"}');
  const workflow = await page.getByLabel("Workflow").inputValue();
  const rel = `.claude/workflow/${workflow}/channel/agents/agent_security.jsonl`;
  await expect(page.locator("figure").filter({ hasText: rel }).locator("pre")).toContainText('"requires_ack":true');
  // Sent once, Ctrl+Enter sends nothing more (requestSubmit fired past the disabled button: a second line).
  const sends: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/compose") && !(r.postData() ?? "").includes('"dryRun":true')) sends.push(r.url());
  });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("send-result").filter({ hasText: "Sent 1 message" })).toBeVisible();
  await page.getByLabel("Payload (JSON)").press("ControlOrMeta+Enter");
  await page.getByLabel("Payload (JSON)").press("ControlOrMeta+Enter");
  // A send would have started inside the key's handler; one round trip later nothing has.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  expect(sends).toHaveLength(1);
  const lines = fs.readFileSync(path.join(root, rel), "utf8").trimEnd().split("\n");
  expect(lines.filter((l) => l.includes('"task_e2e"'))).toHaveLength(1);
  const last = lines.at(-1) ?? "";
  expect(JSON.parse(last)).toMatchObject({ to: "agent_security", type: "task_assign", payload: { task_id: "task_e2e" }, requires_ack: true });
});

test("KickLang: Space Format checked as you type; a non-Orchestrator on ⫻command/ only once confirmed, and the envelope says so", async ({ page }) => {
  const root = await composeOn(page, "kicklang");
  await page.getByLabel("Sender", { exact: true }).fill("WePlan");
  await page.getByLabel("Receiver", { exact: true }).fill("RoleDefiner");
  await page.getByLabel("Channel", { exact: true }).fill("⫻command/dispatch");
  await page.getByLabel("Content (Space Format)").fill("just words");
  await expect(page.locator("#compose-content-error")).toHaveText(/not a Space Format string/);
  await page.getByLabel("Content (Space Format)").fill("⫻command/dispatch:task/e2e\nDefine the e2e role.");
  await expect(page.getByRole("alert").filter({ hasText: "Only the Orchestrator sends on ⫻command/" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  const preview = page.locator("figure").filter({ hasText: ".kicklang/channels/command/dispatch.jsonl" }).locator("pre");
  await expect(preview).not.toContainText("confirmed_rules");
  await page.getByRole("checkbox", { name: "Send anyway" }).check();
  // Confirmed, the preview shows the bytes Send writes (it showed the envelope without confirmed_rules).
  await expect(preview).toContainText('"confirmed_rules":["role-authorization"]');
  await send(page, ".kicklang/channels/command/dispatch.jsonl");
  await expect(page.getByText(/warning confirmed/)).toBeVisible();
  const last = fs.readFileSync(path.join(root, ".kicklang/channels/command/dispatch.jsonl"), "utf8").trimEnd().split("\n").at(-1) ?? "";
  expect(JSON.parse(last)).toMatchObject({ sender: "WePlan", receiver: "RoleDefiner", confirmed_rules: ["role-authorization"] });
});

test("IGNITE v2: a task_assignment from its template, a new YAML file in the recipient's queue", async ({ page }) => {
  const root = await composeOn(page, "ignite-yaml");
  await page.getByLabel("From", { exact: true }).fill("leader");
  await page.getByLabel("To", { exact: true }).fill("ignitian_3");
  await page.getByLabel("Type", { exact: true }).fill("task_assignment");
  await expect(page.getByLabel("Payload (YAML)")).toHaveValue(/^task_id: "task_001"/);
  // The template's values are examples: sent unchanged only once confirmed.
  const unchanged = page.getByRole("alert").filter({ hasText: "The body is the task_assignment template unchanged" });
  await expect(unchanged).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await page.getByLabel("Payload (YAML)").fill('task_id: "task_e2e_v2"\ntitle: "v2 from the console"\n');
  await expect(unchanged).toHaveCount(0);
  const rel = await send(page, /^queue\/ignitian_3\/task_assignment_\d{16}\.yaml$/);
  const file = load(fs.readFileSync(path.join(root, rel), "utf8"));
  expect(file).toMatchObject({ type: "task_assignment", from: "leader", to: "ignitian_3", priority: "normal", payload: { task_id: "task_e2e_v2" } });
});

test("KickLang Reply: from the message page, sender and receiver swapped, the correlation id kept", async ({ page }) => {
  const found = await page.request.get(`${server.base}/api/messages?q=${encodeURIComponent("mid:d130c0ae-e8ef-4937-9851-2321c99322a5")}`);
  const [original] = ((await found.json()) as { items: { key: string }[] }).items;
  await page.goto(`${server.base}/messages/${original!.key}`);
  await page.getByRole("link", { name: "Reply" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reply" })).toBeVisible();
  await expect(page.getByLabel("Sender", { exact: true })).toHaveValue("WePlan");
  await expect(page.getByLabel("Receiver", { exact: true })).toHaveValue("Orchestrator");
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue("⫻report/status");
  await expect(page.getByLabel("Correlation id")).toHaveValue("d130c0ae-e8ef-4937-9851-2321c99322a5");
  await page.getByLabel("Content (Space Format)").fill("⫻report/status:task_003/009\nAccepted from e2e");
  await send(page, ".kicklang/channels/report/status.jsonl");
  const last = fs.readFileSync(path.join(roots.kicklang, ".kicklang/channels/report/status.jsonl"), "utf8").trimEnd().split("\n").at(-1) ?? "";
  expect(JSON.parse(last)).toMatchObject({ sender: "WePlan", receiver: "Orchestrator", correlation_id: "d130c0ae-e8ef-4937-9851-2321c99322a5", content: "⫻report/status:task_003/009\nAccepted from e2e" });
});
