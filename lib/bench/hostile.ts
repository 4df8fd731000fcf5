// `npm run bench -- --hostile`: a workspace of files written to stall or exhaust a parser (see
// lib/testing/hostile-files.ts), copied into several queues among ordinary messages, read by the
// production server's first scan while a client polls /api/health and /api/messages. Reports the
// worst request latency and the server's peak RSS against their budgets (1 s, 600 MB).
import fs from "node:fs";
import path from "node:path";
import { hostileFiles } from "@/lib/testing/hostile-files";
import { generateIgniteTree } from "./generate";
import { timedJson, treeRssMb } from "./measure";

export const HOSTILE_BUDGETS = { latencyMs: 1000, rssMb: 600 };

interface BenchServer {
  pid: number;
  /** The server's own log of its first scan. */
  scanLog: string[];
  check(): void;
  stop(): Promise<void>;
}

export interface HostileBenchOptions {
  work: string;
  base: string;
  start(ws: string, data: string): BenchServer;
  /** Ordinary messages around the hostile files. */
  messages: number;
  /** Copies of the hostile set, each in its own queue. */
  copies: number;
}

/** The hostile set `copies` times (queues `architect`, `architect_2`, …), plus ordinary messages; returns the hostile files' count. */
function writeWorkspace(ws: string, messages: number, copies: number): number {
  generateIgniteTree(ws, messages);
  const set = hostileFiles();
  for (let c = 1; c <= copies; c++) {
    for (const f of set) {
      const relPath = c === 1 ? f.relPath : f.relPath.replace("/architect/", `/architect_${c}/`).replace("/dead_letter/dl_", `/dead_letter/c${c}_dl_`);
      const file = path.join(ws, ...relPath.split("/"));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, f.text);
    }
  }
  return set.length * copies;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchHostile(o: HostileBenchOptions) {
  const ws = path.join(o.work, "workspace");
  const hostile = writeWorkspace(ws, o.messages, o.copies);
  const bytes = fs.readdirSync(ws, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).reduce((n, e) => n + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
  const startedAt = performance.now();
  const server = o.start(ws, path.join(o.work, "data"));
  const worst = { ms: 0, url: "" };
  /** Requests slower than a fifth of the budget, with when they were sent (s from spawn): where the time went. */
  const slow: { atS: number; ms: number; url: string }[] = [];
  let peakRss = 0;
  let requests = 0;
  let scanned = false;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRssMb(server.pid))), 100);
  const timed = async (url: string) => {
    const sentAt = performance.now();
    const r = await timedJson(`${o.base}${url}`);
    requests++;
    if (r.ms > HOSTILE_BUDGETS.latencyMs / 5) slow.push({ atS: Math.round((sentAt - startedAt) / 100) / 10, ms: Math.round(r.ms), url });
    if (r.ms > worst.ms) Object.assign(worst, { ms: r.ms, url });
    return r.body;
  };
  try {
    // Up: the first answer (the server's own start is not a request kept waiting).
    for (;;) {
      server.check();
      if (await timedJson(`${o.base}/api/health`).then(() => true, () => false)) break;
      if (performance.now() - startedAt > 300_000) throw new Error("the server did not start within 300 s");
      await sleep(50);
    }
    while (!scanned) {
      server.check();
      await timed("/api/health");
      await timed("/api/messages?limit=50");
      const { sources } = (await timed("/api/sources")) as { sources: { indexing: { done: boolean; fullText: boolean } }[] };
      scanned = sources.length > 0 && sources.every((s) => s.indexing.done && s.indexing.fullText);
      if (performance.now() - startedAt > 1_800_000) throw new Error("the first scan did not finish within 30 min");
      await sleep(20);
    }
    const scanMs = performance.now() - startedAt;
    // The detail view parses each file's bytes again.
    const { items } = (await timed("/api/messages?q=has:problem&limit=500")) as { items: { key: string }[] };
    for (const m of items) await timed(`/api/messages/${m.key}`);
    return { hostileFiles: hostile, workspaceMb: bytes / 1024 / 1024, scanMs, requests, details: items.length, worst, slow, peakRssMb: peakRss, scanLog: server.scanLog };
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

/** Print the figures and write them as JSON to `file`. */
export function reportHostile(r: Awaited<ReturnType<typeof benchHostile>>, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(r, null, 2));
  const verdict = (ok: boolean) => (ok ? "within budget" : "OVER BUDGET");
  console.log(`\nMailroom hostile bench: ${r.hostileFiles} hostile files among ordinary ones, ${r.workspaceMb.toFixed(0)} MB`);
  console.log(`first scan and full-text index finished  ${(r.scanMs / 1000).toFixed(1)} s (from server spawn)`);
  console.log(`requests answered meanwhile, then ${r.details} detail views: ${r.requests}`);
  console.log(`worst request latency                    ${r.worst.ms.toFixed(1)} ms (${r.worst.url}) — budget ${HOSTILE_BUDGETS.latencyMs} ms, ${verdict(r.worst.ms <= HOSTILE_BUDGETS.latencyMs)}`);
  for (const q of r.slow) console.log(`  slow: ${q.ms} ms at ${q.atS} s, ${q.url}`);
  for (const line of r.scanLog) console.log(`server log: ${line}`);
  console.log(`server peak RSS                          ${r.peakRssMb.toFixed(0)} MB — budget ${HOSTILE_BUDGETS.rssMb} MB, ${verdict(r.peakRssMb <= HOSTILE_BUDGETS.rssMb)}`);
}
