// node_modules/.bin/tsx --conditions=react-server scripts/bench-entry-fill.ts [--each 20000] [--inline] [--writes] [--lanes]
// The mixed bench's entry first fill in one process, without the server: the four entry protocols'
// trees (`--each` messages each, as `--mixed` writes them; kept in a cache folder), journaled into
// an empty journal as a start's second turn does (every source in one newest-first load). Prints
// the CPU seconds (process.cpuUsage), the wall time and the longest stretch between two turns of
// the event loop. --inline: every file read on this thread, none ahead on a worker. --writes: the
// fill's write statements then replayed alone into a second empty journal (lib/bench/sql-writes.ts).
// --lanes: as a start does it, a first turn of 10 small commits, then the rest in lanes (entry-lanes.ts). Env: FILL_BY_SQL=1 prints the CPU spent in each SQL text and in COMMIT.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeJournals, openJournal } from "../lib/journal/store";
import { discoverSources } from "../lib/ingest/sources";
import { EntryIngest } from "../lib/ingest/entry-ingest";
import { EntryLanes } from "../lib/ingest/entry-lanes";
import { BATCH_ENTRIES, FIRST_BATCH_ENTRIES } from "../lib/ingest/entry-batch";
import { TAIL_BYTES } from "../lib/ingest/entry-files";
import { cpuSeconds, timeStatements } from "../lib/bench/sql-cpu";
import { recordWrites, replayWrites } from "../lib/bench/sql-writes";
import { generateIgniteYaml, generateKicklang, generateShogun, generateWorkflow } from "../lib/bench/generate-wave2";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const EACH = Number(option("--each", "20000"));
const cache = path.join(os.tmpdir(), `mailroom-entry-fill-cache-${EACH}`);

function prepare(): string[] {
  const roots = [path.join(cache, "workspace"), path.join(cache, "workspace-shogun")];
  if (fs.existsSync(path.join(cache, "done"))) return roots;
  fs.rmSync(cache, { recursive: true, force: true });
  const [root, shogunRoot] = roots as [string, string];
  generateIgniteYaml(root, EACH);
  generateShogun(shogunRoot, EACH);
  generateWorkflow(root, EACH);
  generateKicklang(root, EACH);
  fs.writeFileSync(path.join(cache, "done"), "");
  return roots;
}

async function main(): Promise<void> {
  const roots = prepare();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entry-fill-run-"));
  try {
    const journal = openJournal(path.join(data, "journal.db"));
    const bySql = process.env.FILL_BY_SQL ? timeStatements(journal.db, { transactions: true }) : null;
    const recorded = args.includes("--writes") ? recordWrites(journal.db) : null;
    const sources = (await discoverSources(roots)).flatMap((s) => (s.entries ? [s.entries] : []));
    const inline = args.includes("--inline") ? { readAheadFiles: Infinity } : {};
    const ingest = new EntryIngest(journal.db, Date.now, {}, { first: FIRST_BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: TAIL_BYTES, ...inline });
    let longest = 0;
    let last = performance.now();
    const pause = async () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      await new Promise<void>((r) => setImmediate(r));
      last = performance.now();
    };
    const cpu0 = cpuSeconds();
    const wall0 = performance.now();
    const plans = [];
    for (const s of sources) plans.push(await ingest.plan(s));
    let changed: number;
    if (args.includes("--lanes")) {
      changed = await ingest.load(plans, { pause, maxCommits: 10 });
      const lanes = EntryLanes.start(path.join(data, "journal.db"), plans, ingest.fillsLeft(), {});
      console.log(`first turn at ${((performance.now() - wall0) / 1000).toFixed(2)} s; ${lanes ? "lanes" : "no lanes"}`);
      const merged = (await lanes?.merge(() => false)) ?? [];
      console.log(`${merged.length} sources merged at ${((performance.now() - wall0) / 1000).toFixed(2)} s`);
      const again = [];
      for (const s of sources) again.push(await ingest.plan(s));
      changed += await ingest.load(again, { pause });
    } else changed = await ingest.load(plans, { pause });
    const cpu = cpuSeconds() - cpu0;
    const wall = performance.now() - wall0;
    const messages = journal.db.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    console.log(`${sources.length} sources, ${messages} messages (${changed} changed): CPU ${cpu.toFixed(2)} s, wall ${(wall / 1000).toFixed(2)} s, longest stretch ${longest.toFixed(0)} ms`);
    if (bySql) {
      const rows = [...bySql.entries()].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 25);
      for (const [text, t] of rows) console.log(`${t.cpu.toFixed(2).padStart(6)} s ${String(t.calls).padStart(7)}× ${text.replace(/\s+/g, " ").slice(0, 140)}`);
    }
    recorded?.stop();
    closeJournals();
    if (recorded) {
      const writes = recorded.transactions;
      const replay = openJournal(path.join(data, "replay.db")).db;
      const floor = replayWrites(replay, writes);
      const n = writes.reduce((sum, w) => sum + w.length, 0);
      const again = replay.prepare("SELECT count(*) FROM messages").pluck().get() as number;
      console.log(`its ${n} writes in ${writes.length} transactions alone (${again} messages): CPU ${floor.cpuS.toFixed(2)} s, wall ${floor.wallS.toFixed(2)} s, longest transaction ${floor.longestMs.toFixed(0)} ms`);
      closeJournals();
    }
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}

void main();
