// A Mailroom with MAILROOM_TOKEN: a browser gets in through /?token= once, and from then on its
// pages and its polls pass; nothing gets in without the token.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const TOKEN = "e2e-s3cret+token";
let dir: string;
let server: OwnServer;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-token-"));
  server = await startOwnServer({ root: copyFixture("ignite", path.join(dir, "workspace")), data: path.join(dir, "data"), env: { MAILROOM_TOKEN: TOKEN } });
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("without the token, pages and the API are refused", async ({ request }) => {
  expect((await request.get(`${server.base}/api/health`)).status()).toBe(403);
  const api = await request.get(`${server.base}/api/messages`);
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ error: { code: "token_required" } });
  // An address no API route serves is refused too (not a page that shows the workspace).
  const unknown = await request.get(`${server.base}/api/nope`);
  expect(unknown.status()).toBe(403);
  expect(await unknown.json()).toMatchObject({ error: { code: "token_required" } });
  const page = await request.get(`${server.base}/messages`);
  expect(page.status()).toBe(403);
  expect(await page.text()).toContain("needs its token");
  const withBearer = await request.get(`${server.base}/api/health`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(withBearer.status()).toBe(200);
});

test("/?token= once lets the browser in: the address is clean and the live list polls", async ({ page }) => {
  expect((await page.request.get(`${server.base}/api/health`)).status()).toBe(403);
  await page.goto(`${server.base}/messages?token=${encodeURIComponent(TOKEN)}`);
  await expect(page).toHaveURL(`${server.base}/messages`);
  const rows = page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");
  await expect(rows.first()).toBeVisible();
  // The cookie rides along on the page's own API requests.
  const polled = await page.waitForResponse((r) => r.url().startsWith(`${server.base}/api/messages?`));
  expect(polled.status()).toBe(200);
});
