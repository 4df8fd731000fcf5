// npm run bench [-- --messages N] : generates an IGNITE tree, starts the production server on it
// and measures ingest, query and poll latency, and memory. Prints a table; writes JSON to bench-results/.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateIgniteTree } from "../lib/bench/generate";
import { buildMessage, messageFileName } from "../lib/protocols/ignite/build";

const args = process.argv.slice(2);
const argValue = (name: string) => args[args.indexOf(name) + 1];
const N = args.includes("--messages") ? Number(argValue("--messages")) : 100_000;
const PORT = Number(process.env.BENCH_PORT ?? 3950);
const base = `http://127.0.0.1:${PORT}`;
const projectDir = path.resolve(__dirname, "..");

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timed(url: string): Promise<{ ms: number; body: unknown }> {
  const t = performance.now();
  const res = await fetch(url);
  const body: unknown = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t, body };
}

function readAll(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += readAll(p);
    else if (e.isFile()) {
      fs.readFileSync(p);
      n++;
    }
  }
  return n;
}

/** RSS of a process and all its descendants, in MB. */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat = "";
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // the process ended meanwhile
    }
    const ppid = Number(stat.split(") ")[1]?.split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let kb = 0;
  const visit = (p: number) => {
    const status = fs.existsSync(`/proc/${p}/status`) ? fs.readFileSync(`/proc/${p}/status`, "utf8") : "";
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return kb / 1024;
}

async function main() {
  if (!Number.isInteger(N) || N < 1) throw new Error("--messages must be a positive whole number");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-"));
  const ws = path.join(work, "workspace");
  console.log(`Generating ${N} messages in ${ws} …`);
  const tree = generateIgniteTree(ws, N);

  let t = performance.now();
  const filesRead = readAll(path.join(ws, ".ignite", "queue"));
  const readOnceMs = performance.now() - t;

  if (!fs.existsSync(path.join(projectDir, ".next", "BUILD_ID"))) {
    spawnSync(path.join(projectDir, "node_modules/.bin/next"), ["build"], { cwd: projectDir, stdio: "inherit" });
  }
  t = performance.now();
  const server = spawn(path.join(projectDir, "node_modules/.bin/next"), ["start", "-H", "127.0.0.1", "-p", String(PORT)], {
    cwd: projectDir,
    env: { ...process.env, MAILROOM_ROOT: ws, MAILROOM_DATA: path.join(work, "data"), MAILROOM_RESCAN_MS: "600000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    let listedMs = NaN;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const stats = await fetch(`${base}/api/stats`).then((r) => (r.ok ? (r.json() as Promise<{ totals: { messages: number } }>) : null)).catch(() => null);
      if (stats && stats.totals.messages >= tree.messages) {
        listedMs = performance.now() - t;
        break;
      }
      if (performance.now() - t > 30 * 60_000) throw new Error("ingest did not finish in 30 minutes");
    }
    const queries = [
      "", "from:coordinator", "to:ignitian_3", "agent:leader", "type:task_assignment", "priority:high", "status:delivered",
      "folder:processed", "thread:thr_42", "retries>0", "is:stuck", "has:problem", "after:2026-01-10 before:2026-01-20",
      "agent:leader type:task_assignment status:delivered", "骨組み", "README 骨組み 作成", "-status:delivered priority:high",
    ];
    const latency: Record<string, { p50: number; p95: number }> = {};
    for (const q of queries) {
      const runs: number[] = [];
      for (let i = 0; i < 20; i++) runs.push((await timed(`${base}/api/messages?q=${encodeURIComponent(q)}`)).ms);
      latency[q || "(everything)"] = { p50: percentile(runs, 50), p95: percentile(runs, 95) };
    }
    const deep: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const r: { ms: number; body: unknown } = await timed(`${base}/api/messages?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      deep.push(r.ms);
      cursor = (r.body as { nextCursor: string | null }).nextCursor;
      if (!cursor) break;
    }
    latency["deep paging (500/page)"] = { p50: percentile(deep, 50), p95: percentile(deep, 95) };

    const { seq } = (await timed(`${base}/api/messages?limit=1`)).body as { seq: number };
    const polls: number[] = [];
    for (let i = 0; i < 300; i++) polls.push((await timed(`${base}/api/messages?since=${seq}`)).ms);

    const date = new Date();
    const file = path.join(ws, ".ignite", "queue", "leader", messageFileName("progress_update", date));
    fs.writeFileSync(file, buildMessage({ from: "coordinator", to: ["leader"], type: "progress_update", body: "percent: 50\n", date }));
    t = performance.now();
    let visibleMs = NaN;
    while (performance.now() - t < 10_000) {
      const poll = (await timed(`${base}/api/messages?since=${seq}`)).body as { items: unknown[] };
      if (poll.items.length > 0) {
        visibleMs = performance.now() - t;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const result = {
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "?", node: process.version },
      messages: tree.messages, files: filesRead,
      readOnceMs, listedMs, listedRatio: listedMs / readOnceMs,
      fullTextReadyMs: listedMs, fullTextRatio: listedMs / readOnceMs,
      latency, poll: { p50: percentile(polls, 50), p95: percentile(polls, 95) },
      newFileVisibleMs: visibleMs, rssMb: treeRssMb(server.pid ?? 0),
    };
    fs.mkdirSync(path.join(projectDir, "bench-results"), { recursive: true });
    fs.writeFileSync(path.join(projectDir, "bench-results", `bench-${tree.messages}.json`), JSON.stringify(result, null, 2));
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`\nMailroom bench: ${tree.messages} messages in ${filesRead} files, ${result.machine.cores} cores (${result.machine.cpu})`);
    console.log(`read every file once (baseline)      ${f(readOnceMs)}`);
    console.log(`listed and filterable                ${f(listedMs)}  (${result.listedRatio.toFixed(1)}× baseline; includes server start)`);
    console.log(`full-text search ready               ${f(listedMs)}  (body search is ready when listed)`);
    for (const [q, l] of Object.entries(latency)) console.log(`GET /api/messages ${q.padEnd(52)} p50 ${f(l.p50)}  p95 ${f(l.p95)}`);
    console.log(`poll, nothing changed                p50 ${f(result.poll.p50)}  p95 ${f(result.poll.p95)}`);
    console.log(`new file → in a poll                 ${f(visibleMs)}`);
    console.log(`server RSS                           ${result.rssMb.toFixed(0)} MB`);
  } finally {
    server.kill("SIGTERM");
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
