// npm run bench [-- --messages N] [-- --clients 50 --seconds 20] [-- --cold] [-- --hostile [--copies 5]]
//   [-- --stream [--stream-mb 100 --stream-line-bytes 2048 --stream-thread 3 --stream-rate 1000 --stream-seconds 30 --tight-ms 50]]
//   [-- --mixed [--messages N] [--one-root] [--no-compare] [--cold] [--repeat N]] [-- --stages [--messages N] [--no-whole]]
// Generates an IGNITE tree of N messages (default 100,000), starts the production server on it and
// measures: the baseline (reading every file once), time until every message is listed and
// filterable, until full-text search is ready, /api/messages latency for a fixed set of queries,
// polls with nothing changed, a new file's way into a poll, 50 clients polling every second, and
// server memory. With --cold (Linux, as root), the baseline and the first ingest again from a cold
// page cache. Prints a table; writes JSON to bench-results/. With --hostile, instead: hostile files
// among N ordinary messages (default 5,000), the worst latency and peak RSS during the first scan.
// With --stream, instead: a KickLang channel growing by 1,000 appends a second (lib/bench/stream.ts);
// with --mixed, a tree of all five protocols against an IGNITE-only one (lib/bench/mixed.ts; --repeat N:
// N first ingests of each, in turns, judged on the medians); with
// --stages, each stage of the first ingest timed alone beside its floor (lib/bench/stages.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateIgniteTree } from "../lib/bench/generate";
import { benchHostile, reportHostile } from "../lib/bench/hostile";
import { closeConnections, dropPageCache, percentile, readEveryFile, timedJson, treeCpuSeconds, treeRssMb, type Timed } from "../lib/bench/measure";
import { CHART_QUERIES, QUERIES, latencyLine, queryLatencies, type Latency } from "../lib/bench/queries";
import { benchMixed, reportMixed } from "../lib/bench/mixed";
import { newestPageLine, type NewestPage } from "../lib/bench/newest-page";
import { benchStages, reportStages } from "../lib/bench/stages";
import { benchStream, reportStream, uiPollMs } from "../lib/bench/stream";
import { base, ensureBuild, progress, projectDir, sleep, startServer, timeFirstIngest, waitFor, type Server } from "../lib/bench/server";
import { ignite } from "../lib/protocols/fixtures";

const { buildMessage, messageFileName } = ignite;

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const HOSTILE = args.includes("--hostile");
const N = option("--messages", HOSTILE ? 5000 : 100_000);
const CLIENTS = option("--clients", 50);
const LOAD_SECONDS = option("--seconds", 20);

/** CLIENTS pollers, each asking once a second for changes since its last seq. */
async function pollLoad(serverPid: number, seq: number) {
  const latencies: number[] = [];
  const cpuBefore = treeCpuSeconds(serverPid);
  const until = performance.now() + LOAD_SECONDS * 1000;
  const client = async (offset: number) => {
    await sleep(offset);
    let since = seq;
    while (performance.now() < until) {
      const started = performance.now();
      const r = await timedJson(`${base}/api/messages?since=${since}`);
      latencies.push(r.ms);
      since = (r.body as { seq: number }).seq;
      await sleep(Math.max(0, 1000 - (performance.now() - started)));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client((i * 1000) / CLIENTS)));
  const cpu = treeCpuSeconds(serverPid) - cpuBefore;
  return { clients: CLIENTS, seconds: LOAD_SECONDS, polls: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), serverCpuPercent: (100 * cpu) / LOAD_SECONDS };
}

/**
 * With --cold, the first ingest again from a cold page cache, as on a machine that has not read the
 * tree since it started: the kernel's caches are emptied before the baseline read and again before
 * the server starts, so the server's own start is cold too. Null without --cold, or when the caches
 * cannot be emptied here (not Linux, or not root): it empties them for the whole machine.
 */
async function coldFirstIngest(ws: string, work: string, messages: number) {
  if (!args.includes("--cold")) return null;
  if (!dropPageCache()) {
    console.error("--cold: the kernel's caches cannot be emptied here (it takes Linux and root); the cold figures are left out.");
    return null;
  }
  progress("measuring the first ingest again from a cold page cache");
  const started = performance.now();
  readEveryFile(path.join(ws, ".ignite", "queue"));
  const readOnceMs = performance.now() - started;
  dropPageCache();
  const since = performance.now();
  const server = startServer(ws, path.join(work, "data-cold"));
  try {
    const { listedMs, fullTextMs, newestPage } = await timeFirstIngest(server, messages, since);
    return { readOnceMs, listedMs, listedRatio: listedMs / readOnceMs, fullTextMs, fullTextRatio: fullTextMs / readOnceMs, newestPage, scanLog: server.scanLog };
  } finally {
    await server.stop();
  }
}

async function mainHostile() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-hostile-"));
  try {
    ensureBuild();
    console.log(`Writing hostile files among ${N} messages in ${work} …`);
    const result = await benchHostile({ work, base, start: startServer, messages: N, copies: option("--copies", 5) });
    reportHostile(result, path.join(projectDir, "bench-results", "bench-hostile.json"));
  } finally {
    closeConnections();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function mainStream() {
  const positive = (name: string, fallback: number) => {
    const v = option(name, fallback);
    if (!(v > 0)) throw new Error(`${name} must be a positive number`);
    return v;
  };
  const o = {
    megabytes: positive("--stream-mb", 100), lineBytes: positive("--stream-line-bytes", 2048), thread: positive("--stream-thread", 3), perSecond: positive("--stream-rate", 1000),
    seconds: positive("--stream-seconds", 30), tightPollMs: positive("--tight-ms", 50),
  };
  const missed = reportStream(await benchStream(o, uiPollMs()));
  if (missed.length > 0) process.exitCode = 1;
}

async function main() {
  if (!Number.isInteger(N) || N < 1) throw new Error("--messages must be a positive whole number");
  if (HOSTILE) return mainHostile();
  if (args.includes("--stream")) return mainStream();
  if (args.includes("--stages")) return reportStages(await benchStages(N, { whole: !args.includes("--no-whole") }));
  if (args.includes("--mixed")) {
    const missed = reportMixed(await benchMixed(N, { oneRoot: args.includes("--one-root"), compare: !args.includes("--no-compare"), cold: args.includes("--cold"), repeat: option("--repeat", 1) }));
    if (missed.length > 0) process.exitCode = 1;
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-"));
  const ws = path.join(work, "workspace");
  console.log(`Generating ${N} messages in ${ws} …`);
  const tree = generateIgniteTree(ws, N);
  let t = performance.now();
  const filesRead = readEveryFile(path.join(ws, ".ignite", "queue"));
  const readOnceMs = performance.now() - t;

  ensureBuild();
  t = performance.now();
  let server: Server | null = startServer(ws, path.join(work, "data"));
  try {
    const { listedMs, fullTextMs, newestPage } = await timeFirstIngest(server, tree.messages, t);
    progress(`a correct newest page after ${(newestPage.correctNewestMs / 1000).toFixed(1)} s (first answer ${(newestPage.firstAnswerMs / 1000).toFixed(1)} s)`);
    progress(`listed after ${(listedMs / 1000).toFixed(1)} s, full text after ${(fullTextMs / 1000).toFixed(1)} s (baseline read ${(readOnceMs / 1000).toFixed(2)} s)`);
    const { totals } = (await timedJson(`${base}/api/stats`)).body as { totals: { messages: number } };
    if (totals.messages < tree.messages) throw new Error(`only ${totals.messages} of ${tree.messages} messages journaled`);
    const latency = await queryLatencies(base, [...QUERIES, ...CHART_QUERIES]);
    progress("query latencies measured");
    const { seq } = (await timedJson(`${base}/api/messages?limit=1`)).body as { seq: number };
    // The timeline's poll; the overview's, as a browser sends it (its last ETag back: a 304 while
    // nothing changed); and a route that reads one tiny table, the framework's own floor. In turns,
    // so a collection or a periodic rescan falls on all three alike.
    const { etag } = await timedJson(`${base}/api/stats`);
    const polls: number[] = [];
    const statsPolls: Timed[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 500; i++) {
      polls.push((await timedJson(`${base}/api/messages?since=${seq}`)).ms);
      statsPolls.push(await timedJson(`${base}/api/stats`, etag ? { "if-none-match": etag } : {}));
      floor.push((await timedJson(`${base}/api/sources`)).ms);
    }
    const statsMs = statsPolls.map((r) => r.ms);
    const statsPoll = { p50: percentile(statsMs, 50), p95: percentile(statsMs, 95), notModified: statsPolls.filter((r) => r.status === 304).length };

    const date = new Date();
    const file = path.join(ws, ".ignite", "queue", "leader", messageFileName("progress_update", date));
    fs.writeFileSync(file, buildMessage({ from: "coordinator", to: ["leader"], type: "progress_update", body: "percent: 50\n", date }));
    t = performance.now();
    // Generous: on a huge tree the figure itself is the finding.
    await waitFor(async () => (((await timedJson(`${base}/api/messages?since=${seq}`)).body as { items: unknown[] }).items.length > 0 ? true : null), 300_000, "new file in a poll", server);
    const newFileMs = performance.now() - t;
    const { seq: seqAfter } = (await timedJson(`${base}/api/messages?limit=1`)).body as { seq: number };
    const load = await pollLoad(server.pid, seqAfter);
    const rssMb = treeRssMb(server.pid);
    const scanLog = server.scanLog;
    await server.stop();
    server = null;
    // The tree now holds the new file too.
    const cold = await coldFirstIngest(ws, work, tree.messages + 1);

    const result = {
      command: ["npm run bench --", ...args].join(" "),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "?", node: process.version },
      messages: tree.messages, files: filesRead, readOnceMs,
      listedMs, listedRatio: listedMs / readOnceMs, fullTextMs, fullTextRatio: fullTextMs / readOnceMs, newestPage,
      latency, poll: { p50: percentile(polls, 50), p95: percentile(polls, 95) }, statsPoll,
      floor: { p50: percentile(floor, 50), p95: percentile(floor, 95) }, newFileMs, load, rssMb,
      scanLog, cold,
    };
    fs.mkdirSync(path.join(projectDir, "bench-results"), { recursive: true });
    fs.writeFileSync(path.join(projectDir, "bench-results", `bench-${tree.messages}.json`), JSON.stringify(result, null, 2));
    printTable(result);
  } finally {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function printTable(r: {
  messages: number; files: number; machine: { cores: number; cpu: string }; readOnceMs: number; listedMs: number; listedRatio: number;
  fullTextMs: number; fullTextRatio: number; newestPage: NewestPage; latency: Record<string, Latency>; poll: { p50: number; p95: number };
  floor: { p50: number; p95: number };
  statsPoll: { p50: number; p95: number; notModified: number };
  newFileMs: number; load: { clients: number; seconds: number; polls: number; p50: number; p95: number; serverCpuPercent: number }; rssMb: number;
  scanLog: string[];
  cold: { readOnceMs: number; listedMs: number; listedRatio: number; fullTextMs: number; fullTextRatio: number; newestPage: NewestPage; scanLog: string[] } | null;
}) {
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`\nMailroom bench: ${r.messages} messages in ${r.files} files; ${r.machine.cores} cores (${r.machine.cpu})`);
  console.log(`read every file once (baseline)          ${f(r.readOnceMs)}`);
  console.log(`listed and filterable (from server spawn) ${f(r.listedMs)}  ${r.listedRatio.toFixed(1)}× baseline (budget 3×)`);
  console.log(newestPageLine("", r.newestPage));
  console.log(`full-text search ready                   ${f(r.fullTextMs)}  ${r.fullTextRatio.toFixed(1)}× baseline (budget 6×)`);
  for (const [q, l] of Object.entries(r.latency)) console.log(latencyLine(q, l));
  console.log(`poll, nothing changed (500 polls)        p50 ${f(r.poll.p50)}  p95 ${f(r.poll.p95)} (budget 5 ms)`);
  console.log(`  for comparison, GET /api/sources (500)  p50 ${f(r.floor.p50)}  p95 ${f(r.floor.p95)}`);
  console.log(`overview poll, GET /api/stats (500)     p50 ${f(r.statsPoll.p50)}  p95 ${f(r.statsPoll.p95)} (${r.statsPoll.notModified} answered 304)`);
  console.log(`new file → in a poll                     ${f(r.newFileMs)}`);
  console.log(`${r.load.clients} clients polling every second, ${r.load.seconds} s: ${r.load.polls} polls, p50 ${f(r.load.p50)}, p95 ${f(r.load.p95)}, server CPU ${r.load.serverCpuPercent.toFixed(0)}% of one core`);
  console.log(`server RSS                               ${r.rssMb.toFixed(0)} MB (budget 400 MB)`);
  for (const line of r.scanLog) console.log(`server log: ${line}`);
  if (!r.cold) return;
  console.log("from a cold page cache (the kernel's caches emptied before each; the server's start is cold too):");
  // Files the kernel still had would make a "cold" read about as fast as the first. (A big tree's
  // first read is mostly from the disk already: at a million files it took 47 s, the cold one 82 s.)
  if (r.cold.readOnceMs < 1.25 * r.readOnceMs) console.log("  (the cold read was hardly slower than the first: the caches may not have been emptied)");
  console.log(`  read every file once (baseline)        ${f(r.cold.readOnceMs)}`);
  console.log(`  listed and filterable                  ${f(r.cold.listedMs)}  ${r.cold.listedRatio.toFixed(1)}× baseline (budget 3×)`);
  console.log(newestPageLine("  ", r.cold.newestPage));
  console.log(`  full-text search ready                 ${f(r.cold.fullTextMs)}  ${r.cold.fullTextRatio.toFixed(1)}× baseline (budget 6×)`);
  for (const line of r.cold.scanLog) console.log(`  server log: ${line}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
