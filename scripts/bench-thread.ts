// node_modules/.bin/tsx scripts/bench-thread.ts [--messages 2000] [--screens DIR]
// One thread of N messages on a temp tree, the production server on it (run `next build` first),
// then: API times for the thread and the list, and in Debian's Chromium the time until the graph
// and the sequence show, long tasks, and frame times while panning (at 0.9× and zoomed out to the
// whole graph), scrolling the sequence and replaying at 4×. Prints JSON.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { percentile, timedJson } from "../lib/bench/measure";
import { generateThreadTree } from "../lib/bench/thread-tree";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const N = Number(option("--messages", "2000"));
const SCREENS = option("--screens", "");
const PORT = Number(process.env.BENCH_PORT ?? 3960);
const base = `http://127.0.0.1:${PORT}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n * 10) / 10;

async function until<T>(probe: () => Promise<T | null>, what: string, limitMs = 120_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() - start > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(100);
  }
}

/** Frame gaps (ms) while `act` runs, from a requestAnimationFrame loop in the page. */
async function frames(page: Page, act: () => Promise<void>) {
  // A string, so the bundler's helpers never reach the page.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__stop = false;
    const tick = (t) => { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await act();
  const stamps = (await page.evaluate("(() => { window.__stop = true; return window.__frames; })()")) as number[];
  const gaps = stamps.slice(1).map((t, i) => t - (stamps[i] ?? t));
  const seconds = ((stamps[stamps.length - 1] ?? 0) - (stamps[0] ?? 0)) / 1000;
  return { fps: round(gaps.length / seconds), p95FrameMs: round(percentile(gaps, 95)), maxFrameMs: round(Math.max(...gaps)), frames: gaps.length };
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function of a CPU profile, the heaviest first. */
function topFunctions(p: Profile, n = 15): [string, number][] {
  const byId = new Map(p.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id);
    const name = f ? `${f.functionName || "(anon)"} ${f.url}:${f.lineNumber}:${f.columnNumber}` : "?";
    self.set(name, (self.get(name) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, Math.round(v)]);
}

async function drag(page: Page, x: number, y: number, dx: number, dy: number, steps = 150) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x + (dx * i) / steps, y + (dy * i) / steps);
    await sleep(16);
  }
  await page.mouse.up();
}

async function main() {
  if (await fetch(`${base}/api/health`).then(() => true, () => false)) throw new Error(`port ${PORT} is taken: set BENCH_PORT`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-thread-bench-"));
  const ws = path.join(dir, "workspace");
  const tree = generateThreadTree(ws, N);
  const log = fs.openSync(path.join(dir, "server.log"), "w");
  const server = spawn(path.join(__dirname, "..", "node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", String(PORT)], {
    stdio: ["ignore", log, log],
    // Its own process group: `next start` runs the server in a child, and both must stop.
    detached: true,
    env: { ...process.env, MAILROOM_ROOT: ws, MAILROOM_DATA: path.join(dir, "data"), MAILROOM_POLL_MS: "2000" },
  });
  const result: Record<string, unknown> = { messages: tree.messages };
  try {
    const url = `${base}/api/threads/${tree.threadId}`;
    await until(async () => {
      const body = (await timedJson(url)).body as { messages: unknown[] };
      return body.messages.length >= tree.messages ? true : null;
    }, "ingest");
    // A file outside the thread moves the journal's seq, so the next answer is computed afresh.
    const seqNow = async () => ((await timedJson(`${base}/api/stats`)).body as { seq: number }).seq;
    const before = await seqNow();
    fs.writeFileSync(path.join(ws, ".ignite", "queue", "leader", "note_1.mime"), "From: user\nTo: leader\nX-IGNITE-Type: note\n\nhello\n");
    const moved = await until(async () => ((await seqNow()) > before ? true : null), "seq change", 30_000).catch(() => false);
    const first = moved ? await timedJson(url) : { ms: NaN };
    const runs: number[] = [];
    for (let i = 0; i < 20; i++) runs.push((await timedJson(url)).ms);
    const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
    const list: number[] = [];
    for (let i = 0; i < 20; i++) list.push((await timedJson(`${base}/api/threads`)).ms);
    result.api = { threadFirstMs: round(first.ms), threadP50Ms: round(percentile(runs, 50)), threadP95Ms: round(percentile(runs, 95)), threadKB: Math.round(bytes / 1024), listP50Ms: round(percentile(list, 50)) };

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on("console", (m) => m.type() === "error" && console.error("page console:", m.text().slice(0, 300)));
    page.on("pageerror", (e) => console.error("page error:", String(e).slice(0, 300)));
    page.on("response", (r) => r.status() >= 500 && console.error("server error:", r.status(), r.url()));
    await page.addInitScript(`window.__long = []; window.__longAt = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => { window.__long.push(e.duration); window.__longAt.push([Math.round(e.startTime), Math.round(e.duration)]); })).observe({ type: "longtask", buffered: true });`);
    const cdp = args.includes("--profile") ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    await page.goto(`${base}/threads/${tree.threadId}`, { waitUntil: "commit" });
    await page
      .waitForFunction(`document.querySelectorAll('[data-testid="thread-graph"] .react-flow__node').length > 0 && !document.querySelector('[data-testid="thread-graph"] [role="status"]')`, null, { timeout: 60_000, polling: 50 })
      .catch(async (err: unknown) => {
        console.error(await page.evaluate(`JSON.stringify({ nodes: document.querySelectorAll(".react-flow__node").length, status: document.querySelector('[data-testid="thread-graph"] [role="status"]')?.textContent, starts: performance.getEntriesByName("mailroom:layout-start").length, workers: performance.getEntriesByType("resource").filter((e) => e.initiatorType === "other" || e.name.includes("worker")).map((e) => e.name.slice(-60)) })`));
        throw err;
      });
    const graphMs = (await page.evaluate("performance.now()")) as number;
    if (cdp) {
      const top = topFunctions(((await cdp.send("Profiler.stop")) as { profile: Profile }).profile);
      console.error("top self time (ms):", top);
      for (const [name] of top.filter(([n]) => n.includes("/_next/")).slice(0, 6)) {
        const m = /(\S+):(\d+):(\d+)$/.exec(name);
        const code = m ? (await (await fetch(m[1] ?? "")).text()).split("\n")[Number(m[2])] ?? "" : "";
        console.error(name, "=>", code.slice(Math.max(0, Number(m?.[3]) - 80), Number(m?.[3]) + 220));
      }
    }
    const rendered = await page.locator('[data-testid="thread-graph"] .react-flow__node').count();
    const domReadyMs = (await page.evaluate('performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd')) as number;
    const longTasks = (await page.evaluate("window.__long")) as number[];
    const marks = await page.evaluate(`JSON.stringify({
      layout: performance.getEntriesByName("mailroom:layout").map((e) => [Math.round(e.startTime), Math.round(e.duration)]),
      long: window.__longAt,
    })`);
    console.error("marks", marks);
    const layout = (JSON.parse(marks as string) as { layout: [number, number][] }).layout[0];
    result.open = { domReadyMs: round(domReadyMs), layoutInWorkerMs: layout?.[1] ?? null, graphVisibleMs: round(graphMs), nodesInDom: rendered, longTasks: longTasks.length, longestTaskMs: round(Math.max(0, ...longTasks)) };
    if (SCREENS) await page.screenshot({ path: path.join(SCREENS, "big-graph.png") });

    const pane = await page.locator('[data-testid="thread-graph"] .react-flow__pane').boundingBox();
    if (!pane) throw new Error("no graph pane");
    const cx = pane.x + pane.width / 2;
    const cy = pane.y + pane.height / 2;
    result.panAtStart = await frames(page, () => drag(page, cx, cy, -400, -500));
    await page.getByRole("button", { name: "Fit the whole graph" }).click();
    await sleep(800);
    result.nodesInDomZoomedOut = await page.locator('[data-testid="thread-graph"] .react-flow__node').count();
    result.panZoomedOut = await frames(page, () => drag(page, cx, cy, 300, 200));
    if (SCREENS) await page.screenshot({ path: path.join(SCREENS, "big-graph-all.png") });

    const replay = page.getByRole("region", { name: "Replay" });
    await replay.getByRole("button", { name: "4×" }).click();
    result.replay4x = await frames(page, async () => {
      await replay.getByRole("button", { name: "Play" }).click();
      await sleep(3000);
      await replay.getByRole("button", { name: "Pause" }).click();
    });
    await replay.getByRole("button", { name: "Stop" }).click();

    const t = Date.now();
    await page.getByRole("tab", { name: "Sequence" }).click();
    await page.locator('[data-testid="thread-sequence"] a').first().waitFor();
    result.sequenceVisibleMs = Date.now() - t;
    const seq = await page.getByTestId("thread-sequence").boundingBox();
    if (!seq) throw new Error("no sequence");
    await page.mouse.move(seq.x + seq.width / 2, seq.y + seq.height / 2);
    result.sequenceScroll = await frames(page, async () => {
      for (let i = 0; i < 120; i++) {
        await page.mouse.wheel(0, 120);
        await sleep(16);
      }
    });
    result.sequenceLinksInDom = await page.locator('[data-testid="thread-sequence"] a').count();
    if (SCREENS) await page.screenshot({ path: path.join(SCREENS, "big-sequence.png") });
    await browser.close();
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    if (process.env.BENCH_LOG) fs.copyFileSync(path.join(dir, "server.log"), process.env.BENCH_LOG);
    await sleep(500);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
