// `npm run bench -- --stages [--messages N]`: where a warm first ingest's time goes. On the default
// mode's IGNITE tree, with the cache warmed by one raw read, each stage of the first ingest is timed
// ALONE with Mailroom's real code for it (on the main thread, one stage's input made by the stage
// before), beside its floor (lib/bench/stage-floors.ts); then the whole first ingest as the server
// runs it (scanSource with its worker threads, then the full-text fill), in this process, to see
// how far the real ingest overlaps the stages. Wall and CPU time (the machine is shared).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { listSource } from "@/lib/ingest/listing";
import { readFoundSync } from "@/lib/ingest/read";
import { CHUNK, scanSource, WORKERS_MIN_FILES } from "@/lib/ingest/scan";
import { IngestWorkers } from "@/lib/ingest/workers";
import { BulkInserter, type BulkRow } from "@/lib/journal/bulk";
import { openDb, openWorkerDb, type Db } from "@/lib/journal/db";
import { restoreIndexes } from "@/lib/journal/deferred-indexes";
import { buildFullText, fillFullTextChunk, OFF_THREAD_CHUNK_ROWS } from "@/lib/journal/fulltext";
import { firstSeenDetail, messageRow } from "@/lib/journal/message-row";
import { JournalWriter, type FileRecord } from "@/lib/journal/writer";
import { adapterFor, type FoundFile, type SourceReader } from "@/lib/protocols";
import { generateIgniteTree } from "./generate";
import { readEveryFile } from "./measure";
import { progress, projectDir } from "./server";
import { bareTable, fullTextFloor, indexFloor, insertFloor, openBare, parseFloor, readdirFloor, readFloor, rowsFloor, type BareRow } from "./stage-floors";
import { formatTable, measure, tabulate, totals, type Cost, type StageFigures, type StageLine, type WholeIngest } from "./stage-table";

const SOURCE = "bench";
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const stage = (name: string, count: number, mailroom: Cost, floor: (Cost & { value: number }) | null, floorIs: string): StageFigures => ({
  stage: name, count, mailroom: { wallMs: mailroom.wallMs, cpuMs: mailroom.cpuMs },
  floor: floor && { wallMs: floor.wallMs, cpuMs: floor.cpuMs }, floorCount: floor?.value ?? null, floorIs,
});

async function openReader(root: string): Promise<SourceReader> {
  const reader = await adapterFor("ignite")?.open(root);
  if (!reader) throw new Error(`no IGNITE workspace at ${root}`);
  return reader;
}

/** Listing, reading, parsing, building rows: the files' way to rows, in memory. */
async function toRows(reader: SourceReader, figures: StageFigures[]) {
  // As the first scan lists an empty journal's tree (scan.ts compareHere): no stats, the read's fstat gives them.
  const listed = await measure(() => listSource(reader.root, reader, { stat: false }));
  const files = listed.value.files;
  const floorList = await measure(() => readdirFloor(path.join(reader.root, ".ignite", "queue")));
  figures.push(stage("listing", files.length, listed, { ...floorList, value: floorList.value.length }, "a bare recursive readdirSync (withFileTypes) of queue/"));

  // Bounded reads through openInsideRootSync (no links, no devices, no hard links; fstat; oversized files cut to their head).
  const read = await measure(() => files.map((f) => readFoundSync(reader.root, f)));
  const reads = read.value.filter((r): r is { found: FoundFile; bytes: Buffer; keep: boolean } => r !== null && r.bytes !== null);
  const floorRead = await measure(() => {
    readFloor(floorList.value);
    return floorList.value.length;
  });
  figures.push(stage("reading", reads.length, read, floorRead, "fs.readFileSync of each file"));

  // The adapter's place and parse, as prepareFile calls them (MIME headers, the bounded YAML body).
  const parsed = await measure(async () => {
    const records: FileRecord[] = [];
    for (const { found, bytes, keep } of reads) {
      const placement = reader.place(found.relPath);
      if (!placement) continue;
      const parsedMessage = await reader.parse({ relPath: found.relPath, placement, bytes, found });
      records.push({ source: SOURCE, protocol: "ignite", relPath: found.relPath, originPath: found.relPath, placement, found, parsed: parsedMessage, raw: bytes, rawIsHead: !keep });
    }
    return records;
  });
  const records = parsed.value;
  const asJson = records.map((r) => JSON.stringify(r.parsed));
  const bytes = records.map((r) => r.raw ?? Buffer.alloc(0));
  const floorParse = await measure(() => {
    parseFloor(bytes, asJson);
    return records.length;
  });
  figures.push(stage("parsing", records.length, parsed, floorParse, "utf8 decode + split header lines into a Map + JSON.parse of the parsed message as JSON"));

  // Dead letters link to other messages: the load leaves them to the writer (scan.ts), so they get no row here.
  const loaded = records.filter((r) => !r.parsed.deadLetter);
  const chunks: FileRecord[][] = [];
  for (let i = 0; i < loaded.length; i += CHUNK) chunks.push(loaded.slice(i, i + CHUNK));
  const nowMs = Date.now();
  const built = await measure(() => chunks.map((c) => BulkInserter.rowsOf(c, nowMs)));
  const floorRows = await measure(() => rowsFloor(loaded).length);
  figures.push(stage("building rows", loaded.length, built, floorRows, "an array of the record's values under a `source:path` key"));
  return { files: files.length, deadLetters: records.length - loaded.length, batches: built.value };
}

/** Inserting rows, building indexes, settling threads, full text: into a real, empty journal, and the floors into a bare file. */
async function intoJournal(data: string, batches: BulkRow[][], figures: StageFigures[]) {
  const file = path.join(data, "stages.sqlite");
  const db = openDb(file);
  const writer = new JournalWriter(db);
  const bulk = writer.beginBulkLoad();
  if (!bulk) throw new Error("the new journal is not empty");
  // The first fill's rows go in on a worker's connection (worker.ts), one transaction a chunk.
  const workerDb = openWorkerDb(file);
  const inserter = new BulkInserter(workerDb);
  const rows = batches.reduce((n, b) => n + b.length, 0);
  const inserted = await measure(() => batches.forEach((b) => workerDb.transaction(() => inserter.insertRows(SOURCE, b, b.length, Date.now())).immediate()));

  const bare = openBare(path.join(data, "floor.sqlite"));
  try {
    for (const table of ["messages", "message_raw", "events"]) bareTable(bare, db, table);
    const first = batches[0]?.[0];
    const columns = first ? [...Object.keys(messageRow(first.rec, "", 0, 0)), "thread_key"] : [];
    const keyAt = columns.indexOf("key");
    const bareRows = batches.map((b) => b.map((r): BareRow => ({
      values: r.values, raw: r.rec.raw, headOnly: r.rec.rawIsHead ? 1 : 0, key: String(r.values[keyAt]), atMs: r.atMs, detail: firstSeenDetail(r.rec),
    })));
    const floorInsert = await measure(() => insertFloor(bare, columns, bareRows));
    figures.push(stage("inserting rows", rows, inserted, floorInsert, "prepared INSERTs into bare tables of the same columns (no constraints, no indexes), one transaction a chunk"));

    const statements = (db.prepare("SELECT sql FROM deferred_indexes").pluck().all() as string[]).filter((sql) => /^\s*CREATE\s+(UNIQUE\s+)?INDEX/i.test(sql));
    const indexed = await measure(() => restoreIndexes(db).length);
    const floorIndexed = await measure(() => {
      indexFloor(bare, statements);
      return rows;
    });
    figures.push(stage("building indexes", rows, indexed, floorIndexed, `the same ${statements.length} CREATE INDEX statements on the bare tables`));

    // The rest of BulkLoad.finish (its restoreIndexes has nothing left to do): replies take their parent's thread, duplicates are settled.
    const settled = await measure(() => bulk.finish(SOURCE));
    figures.push(stage("settling threads", rows, settled, null, "none (work only the whole load allows)"));

    // As the server fills it after a big tree's scan: chunks of OFF_THREAD_CHUNK_ROWS on a worker's connection.
    const filled = await measure(() => buildFullText(db, yieldToEventLoop, OFF_THREAD_CHUNK_ROWS, async (from, to) => fillFullTextChunk(workerDb, from, to)));
    const definition = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'messages_fts'").pluck().get() as string;
    figures.push(stage("full text", countOf(db, "messages_fts_docsize"), filled, await measure(() => fullTextFloor(bare, definition)), "INSERT … SELECT of every body into a bare FTS5 table of the same definition"));
  } finally {
    bare.close();
    workerDb.close();
    db.close();
  }
}

const countOf = (db: Db, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

/** The full-text fill as the service runs it (IngestService.fillFullText): a big tree's on one worker thread. */
async function fillLikeService(db: Db, file: string, files: number): Promise<void> {
  const worker = files >= WORKERS_MIN_FILES ? IngestWorkers.open(1) : null;
  if (!worker) return buildFullText(db, yieldToEventLoop);
  try {
    await buildFullText(db, yieldToEventLoop, OFF_THREAD_CHUNK_ROWS, (from, to) => worker.fillFullText(file, from, to));
  } finally {
    await worker.close();
  }
}

/** The whole first ingest, as the server's first scan runs it, in this process (no Next server around it). */
export async function wholeIngest(root: string, data: string): Promise<WholeIngest & { messages: number }> {
  const file = path.join(data, "whole.sqlite");
  const db = openDb(file);
  try {
    const writer = new JournalWriter(db);
    const reader = await openReader(root);
    const scanned = await measure(() => scanSource({ id: SOURCE, protocol: "ignite", root: reader.root, reader, error: null }, writer, { reportProgress: true }));
    const filled = await measure(() => fillLikeService(db, file, scanned.value.files));
    const listed = { wallMs: scanned.wallMs, cpuMs: scanned.cpuMs };
    const fullText = { wallMs: scanned.wallMs + filled.wallMs, cpuMs: scanned.cpuMs + filled.cpuMs };
    return { listed, fullText, workers: scanned.value.load?.workers ?? 0, load: scanned.value.load, messages: countOf(db, "messages") };
  } finally {
    db.close();
  }
}

export interface StagesResult {
  command: string;
  machine: { cores: number; cpu: string; node: string };
  messages: number;
  files: number;
  deadLetters: number;
  readOnceMs: number;
  stages: StageLine[];
  totals: ReturnType<typeof totals>;
  whole: (WholeIngest & { messages: number }) | null;
}

/** Every stage alone, then (with `whole`) the whole ingest, on the tree at `root` (made by generateIgniteTree). */
export async function runStages(root: string, data: string, opts: { whole: boolean; readOnceMs: number }): Promise<Omit<StagesResult, "command" | "machine" | "messages">> {
  const figures: StageFigures[] = [];
  const { files, deadLetters, batches } = await toRows(await openReader(root), figures);
  progress("listing, reading, parsing and rows timed");
  await intoJournal(data, batches, figures);
  progress("inserts, indexes and full text timed");
  batches.length = 0;
  const whole = opts.whole ? await wholeIngest(root, data) : null;
  const stages = tabulate(figures);
  return { files, deadLetters, readOnceMs: opts.readOnceMs, stages, totals: totals(stages), whole };
}

export async function benchStages(n: number, opts: { whole: boolean }): Promise<StagesResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-stages-"));
  try {
    const ws = path.join(work, "workspace");
    console.log(`Generating ${n} messages in ${ws} …`);
    const tree = generateIgniteTree(ws, n);
    // Warm: the tree was just written; one raw read makes sure every page is in the cache, and is the baseline.
    const t = performance.now();
    readEveryFile(path.join(ws, ".ignite", "queue"));
    const readOnceMs = performance.now() - t;
    const data = path.join(work, "data");
    fs.mkdirSync(data);
    const result = await runStages(ws, data, { whole: opts.whole, readOnceMs });
    return {
      command: ["npm run bench --", ...process.argv.slice(2)].join(" "),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "?", node: process.version },
      messages: tree.messages, ...result,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Print the table and write the JSON (bench-results/bench-stages-<N>.json). */
export function reportStages(r: StagesResult): void {
  console.log(`\nMailroom bench --stages: ${r.messages} messages in ${r.files} files (${r.deadLetters} dead letters, left to the writer); ${r.machine.cores} cores (${r.machine.cpu})`);
  console.log("Each stage alone, on the main thread, warm cache; CPU is this process's (every thread). Shares are of the stages' sum.");
  for (const line of formatTable(r.stages, r.readOnceMs, r.whole)) console.log(line);
  const dir = path.join(projectDir, "bench-results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `bench-stages-${r.messages}.json`), JSON.stringify(r, null, 2));
}
