// Values a file can hold do not break the pages: a 5,000-character type or sender stays inside
// the viewport, and a bidirectional override in a sender reorders that name only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { MessageSummary } from "../lib/model";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

let dir: string;
let server: OwnServer;

function mime(i: number, from: string, type: string, threadId: string): string {
  return `MIME-Version: 1.0\nMessage-ID: <hostile${i}@e2e>\nFrom: ${from}\nTo: leader\nDate: Fri, 20 Nov 2026 10:0${i}:00 +0900\nX-IGNITE-Type: ${type}\nX-IGNITE-Thread-ID: ${threadId}\nX-IGNITE-Priority: ${"p".repeat(3000)}\n\nmessage: ${"m".repeat(5000)}\n`;
}

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-hostile-"));
  const root = copyFixture("ignite", path.join(dir, "workspace"));
  const queue = path.join(root, ".ignite", "queue", "leader");
  fs.writeFileSync(path.join(queue, "long_1795136392000001.mime"), mime(1, "s".repeat(5000), "t".repeat(5000), "thr_long_values"));
  // An override that is never closed (no U+202C).
  fs.writeFileSync(path.join(queue, "rlo_1795136392000002.mime"), mime(2, "\u202eredael", "rlo_test", "thr_\u202erlo"));
  server = await startOwnServer({ root, data: path.join(dir, "data") });
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function keyOf(page: Page, type: (t: string) => boolean): Promise<string> {
  let found: MessageSummary | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`${server.base}/api/messages?limit=200`).catch(() => null);
      const items = res?.ok() ? ((await res.json()) as { items: MessageSummary[] }).items : [];
      found = items.find((m) => type(m.type ?? ""));
      return found !== undefined;
    }, { timeout: 60_000 })
    .toBe(true);
  return found?.key ?? "";
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const width of [1280, 390]) {
  test(`5,000-character values stay inside a ${width} px viewport`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const key = await keyOf(page, (t) => t.startsWith("tttt"));
    for (const address of [`/messages/${key}`, "/messages", "/agents/leader", "/threads", "/threads/thr_long_values"]) {
      await page.goto(`${server.base}${address}`);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await overflow(page), address).toBeLessThanOrEqual(0);
    }
  });
}

test("an unclosed right-to-left override in a sender reorders that name only", async ({ page }) => {
  const key = await keyOf(page, (t) => t === "rlo_test");
  await page.goto(`${server.base}/messages/${key}`);
  const line = page.locator("header p").first();
  const from = line.getByText("\u202eredael", { exact: true });
  const arrow = line.getByLabel("to", { exact: true });
  const to = line.getByText("leader", { exact: true });
  const [f, a, t] = await Promise.all([from.boundingBox(), arrow.boundingBox(), to.boundingBox()]);
  // "sender → leader · date", left to right, as for any other sender.
  expect(f && a && t && f.x < a.x && a.x < t.x).toBe(true);
});
