// A workspace big enough that the production build loads it on worker threads (a chunk Next
// bundles, with its own SQLite connection): the path the bench measures, checked in CI so a
// bundling change cannot quietly send every big first scan down the slow fallback.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { generateIgniteTree, type GeneratedTree } from "../lib/bench/generate";

// Over the 20,000 files from which a first scan loads on worker threads (lib/ingest/scan.ts).
const MESSAGES = 21_000;
const port = Number(process.env.MAILROOM_E2E_PORT ?? 3300) + 1;
const base = `http://127.0.0.1:${port}`;

let dir: string;
let tree: GeneratedTree;
let server: ChildProcess;
let output = "";

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-big-"));
  tree = generateIgniteTree(path.join(dir, "workspace"), MESSAGES);
  server = spawn(path.join(__dirname, "..", "node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, MAILROOM_ROOT: tree.root, MAILROOM_DATA: path.join(dir, "data") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => (output += chunk.toString());
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
});

test.afterAll(() => {
  server.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a first scan of 21,000 messages runs on worker threads and lists every one", async ({ page, request }) => {
  test.setTimeout(120_000);
  await expect
    .poll(async () => {
      const res = await request.get(`${base}/api/stats`).catch(() => null);
      return res?.ok() ? ((await res.json()) as { totals: { messages: number } }).totals.messages : 0;
    }, { timeout: 90_000 })
    .toBe(tree.messages);
  // The log comes through a pipe, the count through HTTP: either may arrive first.
  await expect.poll(() => output).toContain("[mailroom] first scan done");
  expect(output).toMatch(/first scan of .*loaded in [\d.]+ s on \d+ worker threads?,/);
  expect(output).not.toMatch(/worker threads failed|could not start worker threads/);

  // One body among 21,000, found by its text (generate.ts writes "メッセージ <n> の本文" into each).
  await page.goto(`${base}/messages?q=${encodeURIComponent('"メッセージ 4242 の本文"')}`);
  const rows = page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");
  await expect(rows).toHaveCount(1);
});
