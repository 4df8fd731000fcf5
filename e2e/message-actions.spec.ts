// Actions the server offers, from the message page, on protocols other than IGNITE v3: shogun's
// Mark read rewrites the inbox on disk (that entry's `read` only) and the badge turns read;
// workflow's Abort task asks first, then appends one abort line; IGNITE v2's Discard moves the
// file to the archive, and its undo brings it back.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "yaml";
import type { MessageSummary } from "../lib/model";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

/** A server of its own on a copy of fixtures/<fixture>, for the tests of one describe block. */
function serveFixture(fixture: string) {
  const ctx = { dir: "", root: "", server: null as OwnServer | null };
  test.beforeAll(async () => {
    ctx.dir = fs.mkdtempSync(path.join(os.tmpdir(), `mailroom-e2e-${fixture}-`));
    ctx.root = copyFixture(fixture, path.join(ctx.dir, "workspace"));
    ctx.server = await startOwnServer({ root: ctx.root, data: path.join(ctx.dir, "data") });
  });
  test.afterAll(() => {
    ctx.server?.stop();
    fs.rmSync(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}

/** The journaled message that `match` picks, once the server has scanned. */
async function openMessage(page: Page, base: string, match: (m: MessageSummary) => boolean): Promise<void> {
  let key = "";
  await expect
    .poll(async () => {
      const res = await page.request.get(`${base}/api/messages?limit=200`).catch(() => null);
      const items = res?.ok() ? ((await res.json()) as { items: MessageSummary[] }).items : [];
      key = items.find(match)?.key ?? "";
      return key;
    }, { timeout: 60_000 })
    .not.toBe("");
  await page.goto(`${base}/messages/${key}`);
}

const outcome = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

test.describe("shogun", () => {
  const ctx = serveFixture("shogun");
  const UNREAD = "msg_20260206_105231_c01d5e42";
  const readFlag = () =>
    (parse(fs.readFileSync(path.join(ctx.root, "queue", "inbox", "karo.yaml"), "utf8")) as { messages: { id: string; read: boolean }[] }).messages.find((m) => m.id === UNREAD)?.read;

  test("Mark read from the message page changes the inbox on disk and the badge; Undo turns it back", async ({ page }) => {
    await openMessage(page, ctx.server?.base ?? "", (m) => m.messageId === UNREAD);
    const main = page.locator("main");
    await expect(main.getByTitle("In an inbox, not read yet").first()).toBeVisible();
    expect(readFlag()).toBe(false);

    await page.getByRole("button", { name: "Mark read", exact: true }).click();
    await expect(outcome(page, "Marked read in queue/inbox/karo.yaml")).toBeVisible();
    expect(readFlag()).toBe(true);
    await expect(main.getByTitle("In an inbox, read").first()).toBeVisible();

    await page.getByRole("button", { name: "Undo" }).click();
    await expect(outcome(page, "Marked unread")).toBeVisible();
    expect(readFlag()).toBe(false);
    await expect(main.getByTitle("In an inbox, not read yet").first()).toBeVisible();
  });
});

test.describe("workflow", () => {
  const ctx = serveFixture("workflow");
  const channel = () => path.join(ctx.root, ".claude/workflow/orchestrate_20260125_143000_a1b2c3d4/channel/agents/agent_security.jsonl");

  test("Abort task asks first; confirmed, one abort line is appended to the agent's channel", async ({ page }) => {
    await openMessage(page, ctx.server?.base ?? "", (m) => m.messageId === "msg_20260125143455_5e6f7a8b");
    const before = fs.readFileSync(channel(), "utf8");
    await page.getByRole("button", { name: "Abort task" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("agent_security an abort for task_003");
    expect(fs.readFileSync(channel(), "utf8")).toBe(before);

    await page.getByRole("button", { name: "Confirm: Abort task" }).click();
    await expect(outcome(page, "Abort sent")).toBeVisible();
    const added = fs.readFileSync(channel(), "utf8").slice(before.length);
    expect(JSON.parse(added)).toMatchObject({ to: "agent_security", type: "abort", payload: { task_id: "task_003" }, requires_ack: true });
    await expect(page.getByText("abort by operator")).toBeVisible();
  });
});

test.describe("IGNITE v2", () => {
  const ctx = serveFixture("ignite-yaml");
  const QUEUED = "queue/innovator/improvement_request_1770263144310556.yaml";

  test("Discard moves the file to the archive; Restore brings it back", async ({ page }) => {
    await openMessage(page, ctx.server?.base ?? "", (m) => m.path === QUEUED);
    await page.getByRole("button", { name: "Discard" }).click();
    await expect(outcome(page, `Discarded: moved to archive/mailroom/${QUEUED}`)).toBeVisible();
    // The button pressed is gone: the focus is on what took its place, not lost on the page.
    await expect(page.getByRole("button", { name: "More actions" })).toBeFocused();
    expect(fs.existsSync(path.join(ctx.root, QUEUED))).toBe(false);
    expect(fs.existsSync(path.join(ctx.root, "archive/mailroom", QUEUED))).toBe(true);

    await page.getByRole("button", { name: "Restore" }).click();
    await expect(outcome(page, `Restored to ${QUEUED}`)).toBeVisible();
    expect(fs.existsSync(path.join(ctx.root, QUEUED))).toBe(true);
  });
});
