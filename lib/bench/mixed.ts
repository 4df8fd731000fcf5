// `npm run bench -- --mixed`: a tree of all five protocols (a fifth of the messages each), read by
// the production server. Its first ingest is compared with an IGNITE-only tree of the same size in
// the same run (msgs/s, and the ratio to reading every file once) with the time to a correct newest
// page during it (every source loads newest first), then the query set and
// `protocol:` filters are timed against the 50 ms p95 budget.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROTOCOLS } from "@/lib/model";
import { generateIgniteTree } from "./generate";
import { generateIgniteYaml, generateKicklang, generateShogun, generateWorkflow } from "./generate-wave2";
import { dropPageCache, machineCpuTicks, percentile, readEveryFile, stealShare, treeCpuSeconds, treeRssMb } from "./measure";
import { NEWEST_PAGE_BUDGET_MS, newestPageLine } from "./newest-page";
import { CHART_QUERIES, QUERIES, QUERY_BUDGET_P95_MS, latencyLine, queryLatencies, type Latency } from "./queries";
import { base, ensureBuild, journaledMessages, progress, projectDir, startServer, timeFirstIngest, type Server } from "./server";

export const PROTOCOL_QUERIES = [
  ...PROTOCOLS.map((p) => `protocol:${p}`), "-protocol:ignite", "protocol:workflow type:task_assign", "protocol:kicklang from:WePlan",
  "protocol:shogun agent:ashigaru7", "protocol:ignite-yaml status:delivered", "agent:agent_security", "from:Orchestrator",
];
/**
 * Run-to-run noise allowed below the IGNITE-only tree's msgs/s before the mixed tree counts as
 * slower. msgs/s, not the ratio to a read of every file: the mixed tree holds far fewer files (many
 * messages a file), so its read is shorter and its ratio not comparable.
 */
const SPEED_TOLERANCE = 1.1;

/**
 * The five layouts: IGNITE v3 (`.ignite/`), IGNITE v2 (`queue/<agent>/`), workflow (`.claude/workflow/`)
 * and KickLang (`.kicklang/`) in one root. Shogun's `queue/inbox/` goes to a second root unless
 * `oneRoot`: IGNITE v2 and shogun both own `<root>/queue/`, and the v2 reader takes any `.yaml` in a
 * queue folder, so in one root shogun's inboxes would also be read as v2 messages of agent "inbox".
 */
export function generateMixed(work: string, total: number, oneRoot: boolean) {
  const root = path.join(work, "workspace");
  const shogunRoot = oneRoot ? root : path.join(work, "workspace-shogun");
  const each = Math.floor(total / 5);
  const parts = {
    ignite: generateIgniteTree(root, total - 4 * each).messages,
    "ignite-yaml": generateIgniteYaml(root, each).messages,
    shogun: generateShogun(shogunRoot, each).messages,
    workflow: generateWorkflow(root, each).messages,
    kicklang: generateKicklang(root, each).messages,
  };
  const roots = oneRoot ? [root] : [root, shogunRoot];
  return { roots, parts, messages: Object.values(parts).reduce((a, b) => a + b, 0) };
}

/** Server spawn → every source listed and filterable, and full-text ready; against reading every file once. */
async function firstIngest(roots: string[], data: string, messages: number, sources: number, keep: (s: Server) => Promise<void>) {
  let t = performance.now();
  const files = roots.reduce((n, r) => n + readEveryFile(r), 0);
  const readOnceMs = performance.now() - t;
  t = performance.now();
  const ticks = machineCpuTicks();
  const server = startServer(roots.join(":"), data);
  try {
    // The peak during the load, lanes and read-ahead threads included: a figure, not the README's
    // 400 MB, which scripts/bench.ts checks once the load is over (after its queries and polls).
    let peakRssMb = 0;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, treeRssMb(server.pid))), 100);
    const { listedMs, fullTextMs, newestPage } = await timeFirstIngest(server, messages, t, sources).finally(() => clearInterval(sampler));
    // Wall time is shared with whatever else runs on the machine; the server's own CPU to this point is not.
    const cpuListedS = treeCpuSeconds(server.pid);
    const steal = stealShare(ticks, machineCpuTicks());
    const journaled = await journaledMessages();
    await keep(server);
    return { messages, journaled, files, readOnceMs, listedMs, fullTextMs, newestPage, listedRatio: listedMs / readOnceMs, fullTextRatio: fullTextMs / readOnceMs, msgsPerSecond: messages / (listedMs / 1000), cpuListedS, steal, peakRssMb, scanLog: server.scanLog };
  } finally {
    await server.stop();
  }
}

type Ingest = Awaited<ReturnType<typeof firstIngest>>;

/**
 * With --cold: the read of every file and the first ingest again from a cold page cache (the
 * kernel's caches emptied before each), as scripts/bench.ts --cold measures IGNITE's budget ratios
 * (DESIGN.md: listed ≤ 3×, full text ≤ 6× a read of every file). Null when the caches cannot be
 * emptied here (it takes Linux and root).
 */
async function coldIngest(roots: string[], data: string, messages: number, sources: number) {
  if (!dropPageCache()) return null;
  let t = performance.now();
  for (const r of roots) readEveryFile(r);
  const readOnceMs = performance.now() - t;
  dropPageCache();
  t = performance.now();
  const server = startServer(roots.join(":"), data);
  try {
    const { listedMs, fullTextMs } = await timeFirstIngest(server, messages, t, sources);
    return { readOnceMs, listedMs, fullTextMs, listedRatio: listedMs / readOnceMs, fullTextRatio: fullTextMs / readOnceMs, scanLog: server.scanLog };
  } finally {
    await server.stop();
  }
}

type Cold = Awaited<ReturnType<typeof coldIngest>>;
/** DESIGN.md's budget table: listed and full text within these multiples of a read of every file. */
const COLD_LISTED = 3;
const COLD_FULL_TEXT = 6;

/**
 * `repeat`: first ingests of each tree, taken in turns (mixed, IGNITE-only, mixed, …), the speed
 * budget judged on the medians. On a shared VM one pair is not a measurement: the same server on
 * the same IGNITE-only tree was listed in 11.7–14.3 s in three runs within ten minutes. Each run
 * says how much of the machine's CPU its host took meanwhile (steal).
 */
export async function benchMixed(total: number, opts: { oneRoot: boolean; compare: boolean; cold?: boolean; repeat?: number }) {
  const repeat = opts.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat must be a positive whole number");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-mixed-"));
  try {
    console.log(`Generating ${total} messages in five protocols under ${work} …`);
    const tree = generateMixed(path.join(work, "mixed"), total, opts.oneRoot);
    ensureBuild();
    let latency: Record<string, Latency> = {};
    const mixed = await firstIngest(tree.roots, path.join(work, "data-mixed"), tree.messages, PROTOCOLS.length, async () => {
      progress("mixed tree listed; timing queries");
      latency = await queryLatencies(base, [...QUERIES, ...PROTOCOL_QUERIES, ...CHART_QUERIES]);
    });
    progress(`mixed: listed after ${(mixed.listedMs / 1000).toFixed(1)} s`);
    const cold: { mixed: Cold; ignite: Cold } = { mixed: null, ignite: null };
    if (opts.cold) {
      progress("mixed: the read and the first ingest again from a cold page cache");
      cold.mixed = await coldIngest(tree.roots, path.join(work, "data-mixed-cold"), tree.messages, PROTOCOLS.length);
      if (!cold.mixed) console.error("--cold: the kernel's caches cannot be emptied here (it takes Linux and root); the cold figures are left out.");
    }
    let ignite: Ingest | null = null;
    const igniteRoot = path.join(work, "ignite-only");
    if (opts.compare) {
      const messages = generateIgniteTree(igniteRoot, tree.messages).messages;
      ignite = await firstIngest([igniteRoot], path.join(work, "data-ignite"), messages, 1, async () => {});
      progress(`IGNITE only: listed after ${(ignite.listedMs / 1000).toFixed(1)} s`);
      if (cold.mixed) cold.ignite = await coldIngest([igniteRoot], path.join(work, "data-ignite-cold"), messages, 1);
    }
    const runs = { mixed: [mixed], ignite: ignite ? [ignite] : [] };
    for (let i = 1; i < repeat; i++) {
      runs.mixed.push(await firstIngest(tree.roots, path.join(work, `data-mixed-${i}`), tree.messages, PROTOCOLS.length, async () => {}));
      progress(`mixed, run ${i + 1}: listed after ${(runs.mixed[i]!.listedMs / 1000).toFixed(1)} s`);
      if (!ignite) continue;
      runs.ignite.push(await firstIngest([igniteRoot], path.join(work, `data-ignite-${i}`), ignite.messages, 1, async () => {}));
      progress(`IGNITE only, run ${i + 1}: listed after ${(runs.ignite[i]!.listedMs / 1000).toFixed(1)} s`);
    }
    const result = {
      command: ["npm run bench --", ...process.argv.slice(2)].join(" "),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "?", node: process.version },
      parts: tree.parts, roots: tree.roots.length, mixed, ignite, runs, cold, latency,
    };
    fs.mkdirSync(path.join(projectDir, "bench-results"), { recursive: true });
    fs.writeFileSync(path.join(projectDir, "bench-results", `bench-mixed-${tree.messages}.json`), JSON.stringify(result, null, 2));
    return result;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Prints the table; returns the budgets missed (none: an empty list). */
export function reportMixed(r: Awaited<ReturnType<typeof benchMixed>>): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const missed: string[] = [];
  console.log(`\nMailroom bench --mixed: ${r.mixed.messages} messages in ${r.mixed.files} files, ${r.roots} root(s); ${r.machine.cores} cores (${r.machine.cpu})`);
  console.log(`  per protocol: ${Object.entries(r.parts).map(([p, n]) => `${p} ${n}`).join(", ")}`);
  const row = (name: string, i: Ingest) =>
    console.log(`${name.padEnd(12)} read once ${s(i.readOnceMs)}  listed ${s(i.listedMs)} (${i.listedRatio.toFixed(1)}×, ${i.msgsPerSecond.toFixed(0)} msgs/s, server CPU ${i.cpuListedS.toFixed(1)} s${stolen(i)}, peak RSS ${i.peakRssMb.toFixed(0)} MB)  full text ${s(i.fullTextMs)} (${i.fullTextRatio.toFixed(1)}×)`);
  row("mixed", r.mixed);
  console.log(newestPageLine("  ", r.mixed.newestPage));
  if (r.ignite) row("IGNITE only", r.ignite);
  if (r.ignite) console.log(newestPageLine("  ", r.ignite.newestPage));
  // msgs/s of each tree: the medians of its runs (one run's own when not repeated).
  const median = (runs: Ingest[]) => percentile(runs.map((i) => i.msgsPerSecond), 50);
  const speed = r.ignite ? { mixed: median(r.runs.mixed), ignite: median(r.runs.ignite) } : null;
  if (r.runs.mixed.length > 1) repeatedRuns(r.runs, speed);
  const coldRow = (name: string, c: Cold) =>
    c && console.log(`${name.padEnd(12)} cold: read once ${s(c.readOnceMs)}  listed ${s(c.listedMs)} (${c.listedRatio.toFixed(1)}×, budget ${COLD_LISTED}×)  full text ${s(c.fullTextMs)} (${c.fullTextRatio.toFixed(1)}×, budget ${COLD_FULL_TEXT}×)`);
  coldRow("mixed", r.cold.mixed);
  coldRow("IGNITE only", r.cold.ignite);
  const cold = r.cold.mixed;
  if (cold && cold.listedRatio > COLD_LISTED) missed.push(`cold: listed in ${cold.listedRatio.toFixed(1)}× a read of every file (budget ${COLD_LISTED}×)`);
  if (cold && cold.fullTextRatio > COLD_FULL_TEXT) missed.push(`cold: full text in ${cold.fullTextRatio.toFixed(1)}× a read of every file (budget ${COLD_FULL_TEXT}×)`);
  const newestAfterMs = r.mixed.newestPage.correctNewestMs - r.mixed.newestPage.firstAnswerMs;
  if (!(newestAfterMs <= NEWEST_PAGE_BUDGET_MS)) missed.push(`a correct newest page ${(newestAfterMs / 1000).toFixed(2)} s after the first answer`);
  if (r.mixed.journaled < r.mixed.messages) missed.push(`only ${r.mixed.journaled} of ${r.mixed.messages} messages journaled`);
  if (speed && speed.mixed * SPEED_TOLERANCE < speed.ignite) {
    const of = r.runs.mixed.length > 1 ? ` (medians of ${r.runs.mixed.length} runs each)` : "";
    missed.push(`first ingest ${speed.mixed.toFixed(0)} msgs/s vs IGNITE-only ${speed.ignite.toFixed(0)} msgs/s${of} (10% slower allowed)`);
  }
  for (const [q, l] of Object.entries(r.latency)) {
    console.log(latencyLine(q, l, QUERY_BUDGET_P95_MS));
    if (l.refused) missed.push(`query ${q} refused`);
    else if (l.p95 > QUERY_BUDGET_P95_MS) missed.push(`query ${q} p95 ${l.p95.toFixed(1)} ms`);
  }
  for (const line of r.mixed.scanLog) console.log(`server log: ${line}`);
  for (const line of r.cold.mixed?.scanLog ?? []) console.log(`server log, cold: ${line}`);
  for (const m of missed) console.log(`OVER BUDGET: ${m}`);
  return missed;
}

const stolen = (i: Ingest) => (i.steal === null ? "" : `, ${(i.steal * 100).toFixed(1)} % of the machine's CPU stolen`);

/** Every run of each tree, in the order taken, and the ratio of the medians' msgs/s. */
function repeatedRuns(runs: { mixed: Ingest[]; ignite: Ingest[] }, speed: { mixed: number; ignite: number } | null): void {
  const line = (name: string, all: Ingest[]) =>
    console.log(`  ${name.padEnd(12)} ${all.map((i) => `${(i.listedMs / 1000).toFixed(1)} s (${i.msgsPerSecond.toFixed(0)} msgs/s, CPU ${i.cpuListedS.toFixed(1)} s${stolen(i)})`).join("; ")}`);
  console.log(`runs, in turns:`);
  line("mixed", runs.mixed);
  if (!speed) return;
  line("IGNITE only", runs.ignite);
  console.log(`  median msgs/s, mixed against IGNITE only: ${((speed.mixed / speed.ignite) * 100).toFixed(0)} % (budget ${(100 / SPEED_TOLERANCE).toFixed(0)} %)`);
}
