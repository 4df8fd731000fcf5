import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ignite } from "../lib/protocols/fixtures";
import { expect, test } from "./fixtures";

const { parseReference } = ignite;

const FILE = /^\.ignite\/queue\/[a-z_0-9]+\/[a-z_]+_\d{16}\.mime$/;

/** After Send: the link to the new message, its root-relative path and its key. */
async function sentMessage(page: Page): Promise<{ rel: string; key: string }> {
  const result = page.getByTestId("send-result").filter({ hasText: "Sent 1 message" });
  await expect(result).toBeVisible();
  const link = result.getByRole("link", { name: FILE });
  const rel = (await link.textContent()) ?? "";
  const key = decodeURIComponent((await link.getAttribute("href"))?.replace(/^\/messages\//, "") ?? "");
  return { rel, key };
}

test("compose a task_assignment for ignitian_1: checked as you type, previewed, sent, on disk and in the queue", async ({ page, workspace }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Compose" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Compose a message" })).toBeVisible();

  await page.getByLabel("From", { exact: true }).fill("coordinator");
  await page.getByLabel("Type", { exact: true }).fill("task_assignment");
  const body = page.getByLabel("Body (YAML)");
  await expect(body).toHaveValue(/^task_id: "task_001"\ntitle: /); // the type's template replaced the untouched body
  await page.getByRole("checkbox", { name: "ignitian_1" }).check();
  await page.getByLabel("Priority").fill("high");
  await page.getByLabel("Thread id").fill("thr_e2e_compose");

  await body.fill('task_id: "task_e2e"\ntitle: [unclosed\n');
  await expect(page.locator("#compose-body-error")).toHaveText(/^The body is not valid YAML \(line \d+, column \d+\)/);
  await expect(body).toHaveAttribute("aria-invalid", "true");
  // The preview says what is still to do, by the field's label, instead of showing files.
  await expect(page.getByRole("listitem").filter({ hasText: /^Body \(YAML\): The body is not valid YAML/ })).toBeVisible();
  await body.fill('task_id: "task_e2e_compose"\ntitle: "画面から送るタスク"');
  await expect(page.getByText("Valid YAML.")).toBeVisible();

  await page.getByLabel("Other recipients").fill("../leader");
  await page.getByLabel("Other recipients").blur();
  await expect(page.locator("#compose-to-error")).toHaveText(/"\.\.\/leader" must not contain "\/" or "\.\."/);
  await page.getByLabel("Other recipients").fill("");

  const preview = page.locator("figure").filter({ hasText: "ignitian_1" });
  await expect(preview.locator("figcaption")).toHaveText(/^\.ignite\/queue\/ignitian_1\/task_assignment_\d{16}\.mime$/);
  await expect(preview.locator("pre")).toContainText("X-IGNITE-Thread-ID: thr_e2e_compose");

  await page.getByRole("button", { name: "Send" }).click();
  const { rel, key } = await sentMessage(page);
  expect(rel).toMatch(/^\.ignite\/queue\/ignitian_1\/task_assignment_\d{16}\.mime$/);
  // Send is disabled once sent: the focus it held is on what it did, not lost on the page's body.
  await expect(page.getByTestId("send-result").filter({ hasText: "Sent 1 message" })).toBeFocused();

  const file = path.join(workspace.root, rel);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(parseReference(fs.readFileSync(file, "utf8"))).toMatchObject({
    from: "coordinator", to: ["ignitian_1"], type: "task_assignment", priority: "high", thread_id: "thr_e2e_compose",
    body: 'task_id: "task_e2e_compose"\ntitle: "画面から送るタスク"',
  });

  await page.goto(`/agents/ignitian_1`);
  await expect(page.locator(`a[href="/messages/${key}"]`)).toBeVisible();
  await page.locator(`a[href="/messages/${key}"]`).click();
  await expect(page.getByRole("heading", { level: 1, name: "task_assignment" })).toBeVisible();
  await expect(page.getByText(/composed — Sent from Mailroom/)).toBeVisible();
});

test("reply to the evaluator's evaluation_request: prefilled, sent, and in thread thr_readme_42", async ({ page, workspace }) => {
  const found = await page.request.get(`/api/messages?q=${encodeURIComponent("type:evaluation_request thread:thr_readme_42")}`);
  const [original] = ((await found.json()) as { items: { key: string; messageId: string }[] }).items;
  expect(original).toBeTruthy();
  await page.goto(`/messages/${original!.key}`);
  await page.getByRole("link", { name: "Reply" }).click();
  await expect(page).toHaveURL(/\/compose\?replyTo=/);

  await expect(page.getByRole("heading", { level: 1, name: "Reply" })).toBeVisible();
  await expect(page.getByLabel("Type", { exact: true })).toHaveValue("evaluation_result");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("evaluator");
  await expect(page.getByRole("checkbox", { name: "coordinator" })).toBeChecked();
  await expect(page.getByLabel("In-Reply-To")).toHaveValue(original!.messageId);
  await expect(page.getByLabel("Thread id")).toHaveValue("thr_readme_42");
  await expect(page.getByLabel("Repository")).toHaveValue("owner/repo");
  await expect(page.getByLabel("Issue", { exact: true })).toHaveValue("42");
  await expect(page.getByLabel("Body (YAML)")).toHaveValue(/task_id: "task_001"/);

  // Sent from the keyboard in the body: the focus stays there, and the outcome is said instead.
  await page.getByLabel("Body (YAML)").press("ControlOrMeta+Enter");
  const { rel, key } = await sentMessage(page);
  await expect(page.getByLabel("Body (YAML)")).toBeFocused();
  await expect(page.locator("#announcer")).toHaveText("Sent 1 message.");
  expect(rel).toMatch(/^\.ignite\/queue\/coordinator\/evaluation_result_\d{16}\.mime$/);
  const text = fs.readFileSync(path.join(workspace.root, rel), "utf8");
  expect(text).toContain(`\nIn-Reply-To: ${original!.messageId}\n`);
  expect(parseReference(text)).toMatchObject({ from: "evaluator", to: ["coordinator"], thread_id: "thr_readme_42", in_reply_to: original!.messageId });

  await page.getByRole("link", { name: "See thread thr_readme_42 in the timeline" }).click();
  await expect(page).toHaveURL(/q=thread%3Athr_readme_42/);
  await expect(page.locator(`a[href="/messages/${key}"]`)).toBeVisible();
});
