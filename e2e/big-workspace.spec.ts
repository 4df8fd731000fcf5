// A workspace big enough that the production build loads it on worker threads (a chunk Next
// bundles, with its own SQLite connection): the path the bench measures, checked in CI so a
// bundling change cannot quietly send every big first scan down the slow fallback.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { generateIgniteTree, type GeneratedTree } from "../lib/bench/generate";
import type { ThreadDetail } from "../lib/threads/model";
import { GUTTER } from "../components/thread/graph-viewport";
import { startOwnServer, type OwnServer } from "./own-server";

// Over the 20,000 files from which a first scan loads on worker threads (lib/ingest/scan.ts).
const MESSAGES = 21_000;
let dir: string;
let tree: GeneratedTree;
let server: OwnServer;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-big-"));
  tree = generateIgniteTree(path.join(dir, "workspace"), MESSAGES);
  server = await startOwnServer({ root: tree.root, data: path.join(dir, "data") });
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a first scan of 21,000 messages runs on worker threads and lists every one", async ({ page, request }) => {
  test.setTimeout(120_000);
  await expect
    .poll(async () => {
      const res = await request.get(`${server.base}/api/stats`).catch(() => null);
      return res?.ok() ? ((await res.json()) as { totals: { messages: number } }).totals.messages : 0;
    }, { timeout: 90_000 })
    .toBe(tree.messages);
  // The log comes through a pipe, the count through HTTP: either may arrive first.
  await expect.poll(() => server.output()).toContain("[mailroom] first scan done");
  expect(server.output()).toMatch(/first scan of .*loaded in [\d.]+ s on \d+ worker threads?( \([\d,]+ files? read ahead\))?,/);
  expect(server.output()).not.toMatch(/worker threads failed|could not start worker threads/);

  // One body among 21,000, found by its text (generate.ts writes "メッセージ <n> の本文" into each).
  await page.goto(`${server.base}/messages?q=${encodeURIComponent('"メッセージ 4242 の本文"')}`);
  const rows = page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");
  await expect(rows).toHaveCount(1);
});

test("a long chain of replies opens on its first message, legibly, and the fit button shows all of it", async ({ page, request }) => {
  test.setTimeout(120_000);
  // generate.ts writes threads of 20 replies in a row: too long to fit a pane at a zoom that reads.
  // Polled: this test may run first (a retry, or -g), while the server is still scanning.
  let messages: ThreadDetail["messages"] = [];
  await expect
    .poll(async () => {
      const res = await request.get(`${server.base}/api/threads/thr_42`).catch(() => null);
      messages = res?.ok() ? ((await res.json()) as ThreadDetail).messages : [];
      return messages.length;
    }, { timeout: 90_000 })
    .toBe(20);
  const [first, last] = [messages[0]!, messages.at(-1)!];

  await page.goto(`${server.base}/threads/thr_42`);
  const graph = page.getByTestId("thread-graph");
  const firstNode = graph.locator(`.react-flow__node:has(a[href="/messages/${first.key}"])`);
  await expect(firstNode).toBeVisible();
  // Opened on it: centred between the controls and the minimap (React Flow's own opening puts it at the left edge)…
  const pane = (await graph.locator(".react-flow").boundingBox())!;
  const middle = pane.x + GUTTER.left + (pane.width - GUTTER.left - GUTTER.right) / 2;
  await expect.poll(async () => {
    const box = await firstNode.boundingBox();
    return box ? Math.abs(box.x + box.width / 2 - middle) : Infinity;
  }).toBeLessThan(2);
  // …and drawn at least half size (236 px wide at 100%), where its type and agents can be read.
  expect((await firstNode.boundingBox())?.width).toBeGreaterThanOrEqual(118);
  // The last is out of view, but there: Tab reaches every message of a thread this size (see RENDER_ALL_UP_TO).
  await expect(graph.locator(`a[href="/messages/${last.key}"]`)).toHaveCount(1);
  await expect(graph.locator(`a[href="/messages/${last.key}"]`)).not.toBeInViewport();

  await graph.getByRole("button", { name: "Fit the whole graph" }).click();
  for (const m of messages) await expect(graph.locator(`a[href="/messages/${m.key}"]`)).toHaveCount(1);
});
