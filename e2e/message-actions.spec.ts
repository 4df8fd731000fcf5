// An action the server offers, from the message page, on a protocol other than IGNITE: shogun's
// Mark read rewrites the inbox on disk (that entry's `read` only) and the badge turns read.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";
import type { MessageSummary } from "../lib/model";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const UNREAD = "msg_20260206_105231_c01d5e42";
let dir: string;
let inbox: string;
let server: OwnServer;

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-shogun-"));
  const root = copyFixture("shogun", path.join(dir, "workspace"));
  inbox = path.join(root, "queue", "inbox", "karo.yaml");
  server = startOwnServer({ root, data: path.join(dir, "data"), portOffset: 7 });
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const readFlag = () => (parse(fs.readFileSync(inbox, "utf8")) as { messages: { id: string; read: boolean }[] }).messages.find((m) => m.id === UNREAD)?.read;

test("shogun: Mark read from the message page changes the inbox on disk and the badge", async ({ page }) => {
  let key = "";
  await expect
    .poll(async () => {
      const res = await page.request.get(`${server.base}/api/messages?limit=200`).catch(() => null);
      const items = res?.ok() ? ((await res.json()) as { items: MessageSummary[] }).items : [];
      key = items.find((m) => m.messageId === UNREAD)?.key ?? "";
      return key;
    }, { timeout: 60_000 })
    .not.toBe("");
  await page.goto(`${server.base}/messages/${key}`);
  const header = page.locator("main");
  await expect(header.getByTitle("In an inbox, not read yet").first()).toBeVisible();
  expect(readFlag()).toBe(false);

  await page.getByRole("button", { name: "Mark read", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked read in queue/inbox/karo.yaml" })).toBeVisible();
  expect(readFlag()).toBe(true);
  await expect(header.getByTitle("In an inbox, read").first()).toBeVisible();

  // Undo marks it unread again, on disk and on the page.
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked unread" })).toBeVisible();
  expect(readFlag()).toBe(false);
  await expect(header.getByTitle("In an inbox, not read yet").first()).toBeVisible();
});
