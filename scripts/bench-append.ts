// node_modules/.bin/tsx --conditions=react-server scripts/bench-append.ts [--mb 100] [--appends 3000] [--batch 50]
// The live append path of `npm run bench -- --stream` in one process, without the server: a
// KickLang channel pre-filled and journaled once (kept in a cache folder and copied for each run),
// then `--appends` envelopes appended `--batch` at a time, each batch journaled as a file event
// is (EntryIngest.applyPaths), with the overdue sweep once per 1,000 appends (the server's timer
// runs it every second). Prints the CPU seconds (process.cpuUsage) per 1,000 appends (all, and the
// median of each 1,000: steadier on a shared machine), the bytes read (rchar), the WAL's size at the
// end per 1,000 (with APPEND_PRAGMAS="wal_autocheckpoint=0", every page the commits wrote: a count,
// the same run to run, where CPU seconds are not) and a search's time.
// --profile FILE: a .cpuprofile of the appends alone. Env: APPEND_BY_SQL=1 prints the CPU spent in
// each SQL text; APPEND_PRAGMAS="a=1;b=2" and APPEND_FTS="automerge=0" set the journal's options
// for the run; APPEND_SQL runs SQL on the journal first (DROP INDEX x: what x costs); APPEND_CACHE
// names another pre-filled cache folder (one VACUUMed to another page size, say); APPEND_WAIT_MS
// pauses before the appends (to attach perf to the printed pid).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { closeJournals, openJournal } from "../lib/journal/store";
import { buildFullText } from "../lib/journal/fulltext";
import { discoverSources } from "../lib/ingest/sources";
import { EntryIngest } from "../lib/ingest/entry-ingest";
import { ChannelWriter, prefillChannel } from "../lib/bench/stream-channel";
import { cpuSeconds, timeStatements } from "../lib/bench/sql-cpu";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const MB = Number(option("--mb", "100"));
const APPENDS = Number(option("--appends", "3000"));
const BATCH = Number(option("--batch", "50"));
/** Writes a .cpuprofile of the appends alone (not the pre-fill) here. */
const PROFILE = option("--profile", "");
/** Named for how it is made: a cache from before the pre-fill was analyzed as a start analyzes it is not reused. */
const cache = process.env.APPEND_CACHE ?? path.join(os.tmpdir(), `mailroom-append-cache-${MB}mb-analyzed`);
const run = path.join(os.tmpdir(), "mailroom-append-run");
/** Bytes this process has read by any call (rchar): SQLite's page reads past its cache show here. */
const readBytes = () => Number(/rchar: (\d+)/.exec(fs.readFileSync("/proc/self/io", "utf8"))?.[1] ?? NaN);

async function prepare(): Promise<void> {
  if (fs.existsSync(path.join(cache, "done.json"))) return;
  fs.rmSync(cache, { recursive: true, force: true });
  fs.rmSync(run, { recursive: true, force: true });
  const filled = prefillChannel(path.join(run, "ws"), MB * 1024 * 1024, 2048, 3);
  const journal = openJournal(path.join(run, "journal.db"));
  const ingest = new EntryIngest(journal.db);
  const t = performance.now();
  for (const s of (await discoverSources([path.join(run, "ws")])).flatMap((x) => (x.entries ? [x.entries] : []))) await ingest.scan(s);
  // As a start does (service.ts): statistics after the first scan, then the full-text fill.
  journal.writer.analyze();
  await buildFullText(journal.db, async () => {});
  console.log(`pre-filled ${filled.messages} messages, journaled in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  closeJournals();
  fs.cpSync(run, cache, { recursive: true });
  fs.writeFileSync(path.join(cache, "done.json"), JSON.stringify({ file: path.relative(run, filled.file), requests: filled.requests }));
}

async function main(): Promise<void> {
  await prepare();
  const done = JSON.parse(fs.readFileSync(path.join(cache, "done.json"), "utf8")) as { file: string; requests: string[] };
  fs.rmSync(run, { recursive: true, force: true });
  fs.cpSync(cache, run, { recursive: true, preserveTimestamps: true });
  const file = path.join(run, done.file);
  const journal = openJournal(path.join(run, "journal.db"));
  // A copy is a new inode: the journal is told so, or its first scan takes the channel for a replaced one and reads it all again.
  const files = journal.db.prepare("SELECT source, path FROM entry_files").all() as { source: string; path: string }[];
  for (const f of files) {
    const st = fs.statSync(path.join(run, "ws", f.path));
    journal.db.prepare("UPDATE entry_files SET ino = ?, mtime_ms = ? WHERE source = ? AND path = ?").run(st.ino, Math.trunc(st.mtimeMs), f.source, f.path);
  }
  for (const p of (process.env.APPEND_PRAGMAS ?? "").split(";").filter(Boolean)) journal.db.pragma(p);
  for (const [k, v] of (process.env.APPEND_FTS ?? "").split(";").filter(Boolean).map((kv) => kv.split("="))) {
    journal.db.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('${k}', ${Number(v)})`);
  }
  if (process.env.APPEND_SQL) journal.db.exec(process.env.APPEND_SQL);
  const bySql = process.env.APPEND_BY_SQL ? timeStatements(journal.db) : null;
  const ingest = new EntryIngest(journal.db);
  const source = (await discoverSources([path.join(run, "ws")])).flatMap((x) => (x.entries ? [x.entries] : [])).find((s) => file.startsWith(s.root));
  if (!source) throw new Error("no entry source for the channel");
  await ingest.scan(source);
  const writer = new ChannelWriter(file, done.requests);
  let cpu = 0;
  let sweep = 0;
  /** CPU seconds of each 1,000 appends: their median is steadier than the total on a shared machine. */
  const perThousand: number[] = [];
  let segment = 0;
  if (process.env.APPEND_WAIT_MS) {
    console.log(`ready ${process.pid}`);
    await new Promise((r) => setTimeout(r, Number(process.env.APPEND_WAIT_MS)));
  }
  const session = new Session();
  if (PROFILE) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const wall = performance.now();
  const read0 = readBytes();
  for (let n = 0; n < APPENDS; n += BATCH) {
    for (let i = 0; i < BATCH; i++) writer.append();
    const c0 = cpuSeconds();
    await ingest.applyPaths(source, [file]);
    if (Math.floor((n + BATCH) / 1000) > Math.floor(n / 1000)) {
      const s0 = cpuSeconds();
      ingest.sweepDue();
      sweep += cpuSeconds() - s0;
    }
    cpu += cpuSeconds() - c0;
    segment += cpuSeconds() - c0;
    if (Math.floor((n + BATCH) / 1000) > Math.floor(n / 1000)) {
      perThousand.push(segment);
      segment = 0;
    }
  }
  writer.close();
  const readMbPer1000 = ((readBytes() - read0) / 1024 / 1024) * (1000 / APPENDS);
  if (PROFILE) fs.writeFileSync(PROFILE, JSON.stringify((await session.post("Profiler.stop")).profile));
  const walBytes = fs.statSync(path.join(run, "journal.db-wal"), { throwIfNoEntry: false })?.size ?? 0;
  const count = journal.db.prepare("SELECT count(*) FROM messages").pluck().get() as number;
  // What a full-text search costs after the appends (its segments, as the appends left them).
  const search = journal.db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT 50").pluck();
  const s0 = performance.now();
  for (let i = 0; i < 20; i++) {
    search.all(`"written ${1700000000000 + i * 7919}"`);
    search.all('"テスト追加"');
  }
  const searchMs = (performance.now() - s0) / 40;
  console.log(
    JSON.stringify({
      mb: MB, appends: APPENDS, batch: BATCH, messages: count,
      cpuSecondsPer1000: +((cpu * 1000) / APPENDS).toFixed(3),
      medianPer1000: +([...perThousand].sort((a, b) => a - b)[Math.floor(perThousand.length / 2)] ?? NaN).toFixed(3), sweepSecondsPer1000: +((sweep * 1000) / APPENDS).toFixed(3),
      searchMs: +searchMs.toFixed(2),
      readMbPer1000: +readMbPer1000.toFixed(1),
      walMbPer1000: +((walBytes / 1024 / 1024) * (1000 / APPENDS)).toFixed(1),
      wallSeconds: +((performance.now() - wall) / 1000).toFixed(1),
    }),
  );
  if (bySql) {
    const rows = [...bySql].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 30);
    for (const [sql, t] of rows) console.log(`${((t.cpu * 1e6) / APPENDS).toFixed(1).padStart(6)} ms/1000 ${String(t.calls).padStart(7)} calls  ${sql.replace(/\s+/g, " ").slice(0, 150)}`);
  }
  closeJournals();
}

void main();
