// The first scan of an empty journal takes the bulk path (lib/journal/bulk.ts). It must build the
// journal the writer builds file by file: these tests scan the same trees both ways and compare.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { generateIgniteTree } from "@/lib/bench/generate";
import { openDb, type Db } from "@/lib/journal/db";
import { deferIndexes } from "@/lib/journal/deferred-indexes";
import { LOAD_SETS_ASIDE } from "@/lib/journal/load-triggers";
import { JournalWriter } from "@/lib/journal/writer";
import { openIgnite } from "@/lib/protocols/ignite";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import { ignite } from "@/lib/protocols/fixtures";
import { BulkLoad } from "@/lib/journal/bulk";
import { copyFixture } from "@/lib/testing/fixtures";
import { fileRecord } from "@/lib/testing/parsed";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { IngestWorkers } from "./workers";
import { scanSource } from "./scan";

const { buildDeadLetter, buildMessage, markProcessing, messageFileName, setHeader } = ignite;

const NOW = Date.parse("2026-11-22T00:00:00Z");
const temp = tempDirs();

/** Every row with its file's bytes (kept apart in message_raw), but for id and seq, which follow the load's order. */
const rowsOf = (db: Db) =>
  (
    db
      .prepare("SELECT m.*, r.raw, r.head_only FROM messages m LEFT JOIN message_raw r ON r.id = m.id WHERE m.source = 's' ORDER BY m.key")
      .all() as Record<string, unknown>[]
  ).map(({ id: _id, seq: _seq, ...rest }) => rest);

/** Scan `root` into a fresh journal, in bulk or (with another source's message already there, and no load offered) file by file. */
async function scanned(root: string, mode: "bulk" | "bulk on worker threads" | "file by file", chunkFiles?: number): Promise<{ db: Db; rows: unknown[]; events: unknown[]; counts: unknown[] }> {
  const db = openDb(path.join(temp("mailroom-bulk-data-"), "journal.sqlite"));
  const writer = new JournalWriter(db, () => NOW);
  if (mode === "file by file") {
    writer.record({
      source: "other", protocol: "ignite", relPath: "x.mime", originPath: "x.mime", placement: { agent: "leader", folder: "queue" },
      found: { mtimeMs: NOW, size: 1, ino: 1 }, raw: null,
      parsed: {
        messageId: "<unrelated@test>", from: null, to: [], cc: [], type: null, priority: null, threadId: null, inReplyTo: null,
        correlationId: null, repository: null, issue: null, date: null, rawStatus: null, status: "queued", retryCount: 0,
        nextRetryAt: null, body: "", problems: [], deadLetter: null,
      },
    });
    // A journal of a few messages would still take a load (LOAD_BESIDE_AT_MOST).
    vi.spyOn(writer, "beginBulkLoad").mockReturnValue(null);
  }
  const reader = await openIgnite(root);
  if (!reader) throw new Error(`no IGNITE workspace at ${root}`);
  const workersMinFiles = mode === "bulk on worker threads" ? 0 : Infinity;
  await scanSource({ id: "s", protocol: "ignite", root, reader, error: null }, writer, { reportProgress: false, workersMinFiles, chunkFiles });
  const rows = rowsOf(db);
  const events = db
    .prepare("SELECT e.key, e.at_ms, e.kind, e.detail FROM events e JOIN messages m USING (key) WHERE m.source = 's' ORDER BY e.key, e.kind, e.detail")
    .all();
  // The overview's counts and the threads' last activity (kept by triggers, or by a load while it sets them aside).
  const counts = [
    ...db.prepare("SELECT * FROM agent_counts WHERE source = 's' AND n > 0 ORDER BY agent, dead_letter, status").all(),
    ...db.prepare("SELECT * FROM thread_last ORDER BY thread_key").all(),
  ];
  return { db, rows, events, counts };
}

async function expectSameJournal(root: string, bulkMode: "bulk" | "bulk on worker threads" = "bulk", chunkFiles?: number): Promise<Db> {
  const bulk = await scanned(root, bulkMode, chunkFiles);
  const single = await scanned(root, "file by file");
  expect(bulk.rows.length).toBeGreaterThan(0);
  expect(bulk.rows).toEqual(single.rows);
  expect(bulk.events).toEqual(single.events);
  expect(bulk.counts).toEqual(single.counts);
  single.db.close();
  return bulk.db;
}

/** A generated tree of three load chunks, and an empty journal to scan it into. */
/** Chunks of 150 files: three of a 450-file tree, a tenth of the real size (a loaded 2-core machine took 100 s for one test at full size). */
const CHUNK_FILES = 150;

async function threeChunks() {
  const root = path.join(temp("mailroom-bulk-ws-"), "ws");
  generateIgniteTree(root, 450);
  const db = openDb(path.join(temp("mailroom-bulk-data-"), "journal.sqlite"));
  const writer = new JournalWriter(db, () => NOW);
  const reader = await openIgnite(root);
  if (!reader) throw new Error("not a workspace");
  return { root, db, writer, source: { id: "s", protocol: "ignite" as const, root, reader, error: null } };
}

function write(root: string, rel: string, headers: Parameters<typeof buildMessage>[0]): void {
  const file = path.join(root, ".ignite", "queue", rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, buildMessage(headers));
}

describe("bulk first scan", () => {
  it.each(["bulk", "bulk on worker threads"] as const)(
    "journals the newest dead letters after the first chunk as the end of the load would, and one whose live original is older at the end (%s)",
    async (mode) => {
      const root = path.join(temp("mailroom-bulk-ws-"), "ws");
      generateIgniteTree(root, 450); // every message in the first hours of 2026
      const newest = new Date("2026-06-01T00:00:00Z");
      const letter = (original: string, originalName: string, movedAt: Date) => {
        const dead = setHeader(markProcessing(original, movedAt), "X-IGNITE-Retry-Count", "3");
        const name = originalName.replace(/\.mime$/, `_dlq_${Math.floor(movedAt.getTime() / 1000)}.mime`);
        fs.writeFileSync(path.join(root, ".ignite", "queue", "dead_letter", name), buildDeadLetter(dead, originalName, { retryCount: 3, maxRetries: 3, lastError: "timeout", movedAt }));
      };
      const base = { from: "leader", type: "task_assignment", body: "task_id: t1\n" };
      // A message seen only through its letter, the newest file of all: journaled after the first chunk.
      const loneAt = new Date(newest.getTime() - 60_000);
      letter(buildMessage({ ...base, to: ["ignitian_1"], date: loneAt, messageId: "<lone@t>" }), messageFileName("task_assignment", loneAt), newest);
      // A message requeued long ago (its live file keeps its old name) and dead-lettered again: its
      // letter is new, but its original is in the last chunk, so the letter must wait to link to it.
      const old = new Date("2025-06-01T00:00:00Z");
      const requeued = buildMessage({ ...base, to: ["ignitian_2"], date: old, messageId: "<requeued@t>" });
      const requeuedName = messageFileName("task_assignment", old);
      fs.writeFileSync(path.join(root, ".ignite", "queue", "ignitian_2", requeuedName), requeued);
      letter(requeued, requeuedName, new Date(newest.getTime() + 1000));
      const early = vi.spyOn(BulkLoad.prototype, "withIndexes");
      const db = await expectSameJournal(root, mode, CHUNK_FILES);
      expect(early).toHaveBeenCalledTimes(1);
      early.mockRestore();
      // One message, its live file, which the letter holds.
      const original = db.prepare("SELECT key, path FROM messages WHERE message_id = '<requeued@t>'").all() as { key: string; path: string | null }[];
      expect(original).toEqual([{ key: expect.any(String), path: expect.stringContaining(requeuedName) }]);
      expect(db.prepare("SELECT count(*) FROM messages WHERE dead_letter_of = ?").pluck().get(original[0]?.key)).toBe(1);
      db.close();
    },
  );

  it("builds the same journal as the writer for the IGNITE fixture (dead letters, problems, stuck)", async () => {
    const db = await expectSameJournal(copyFixture("ignite", path.join(temp("mailroom-bulk-ws-"), "ws")));
    db.close();
  });

  it("builds the same journal for a generated tree (threads, retries, dead letters, Japanese bodies)", async () => {
    const root = path.join(temp("mailroom-bulk-ws-"), "ws");
    generateIgniteTree(root, 1500);
    const db = await expectSameJournal(root);
    db.close();
  });

  it("reads on worker threads into the same journal (the fixture's oddities: binary, empty, symlinks, oversized)", async () => {
    const errors = vi.spyOn(console, "error");
    const db = await expectSameJournal(copyFixture("ignite", path.join(temp("mailroom-bulk-ws-"), "ws")), "bulk on worker threads");
    // No fallback to the main thread happened: the workers did the reading.
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    db.close();
  });

  it("keeps only the head of a file too big to keep, on worker threads as file by file", async () => {
    const root = copyFixture("ignite", path.join(temp("mailroom-bulk-ws-"), "ws"));
    const body = "x: y\n".repeat(MAX_FILE_BYTES / 5 + 1000);
    const text = buildMessage({ from: "coordinator", to: ["leader"], type: "big_report", body, date: new Date("2026-11-20T10:00:00Z") });
    fs.writeFileSync(path.join(root, ".ignite", "queue", "leader", "big_report_1.mime"), text);
    const db = await expectSameJournal(root, "bulk on worker threads");
    const kept = db
      .prepare("SELECT length(r.raw) AS bytes, r.head_only AS headOnly FROM messages m JOIN message_raw r ON r.id = m.id WHERE m.type = 'big_report'")
      .get() as { bytes: number; headOnly: number };
    expect(kept.headOnly).toBe(1);
    expect(kept.bytes).toBeLessThan(MAX_FILE_BYTES / 8);
    db.close();
  });

  it("settles replies met before their parent, reply chains without a Thread-ID, and duplicate Message-IDs", async () => {
    const root = path.join(temp("mailroom-bulk-ws-"), "ws");
    const date = new Date("2026-11-20T10:00:00Z");
    const base = { from: "leader", type: "task_assignment", body: "task_id: t1\n", date };
    // Folder order on disk is not name order, so the chain is spread over many agents both ways round.
    write(root, "a0/processed/root.mime", { ...base, to: ["a0"], messageId: "<m0@t>", threadId: "thr_chain" });
    for (let i = 1; i <= 12; i++) {
      write(root, `a${i}/processed/reply.mime`, { ...base, to: [`a${i}`], messageId: `<m${i}@t>`, inReplyTo: `<m${i - 1}@t>`, body: `n: ${i}\n` });
    }
    write(root, "dup1/processed/same.mime", { ...base, to: ["dup1"], messageId: "<dup@t>", body: "x: 1\n" });
    write(root, "dup2/same.mime", { ...base, to: ["dup2"], messageId: "<dup@t>", body: "x: 1\n" });
    write(root, "orphan/reply.mime", { ...base, to: ["orphan"], messageId: "<o@t>", inReplyTo: "<missing@t>", body: "task_id: t9\n" });
    const db = await expectSameJournal(root);
    const keys = db.prepare("SELECT DISTINCT thread_key FROM messages WHERE message_id LIKE '<m%'").pluck().all();
    expect(keys).toEqual(["h\x1fthr_chain"]);
    expect(db.prepare("SELECT count(*) FROM messages WHERE duplicate = 1").pluck().get()).toBe(2);
    db.close();
  });

  it("keeps what a load that failed part-way journaled, with its indexes, and the next scan completes it", async () => {
    const root = path.join(temp("mailroom-bulk-ws-"), "ws");
    generateIgniteTree(root, 250); // two chunks
    const db = openDb(path.join(temp("mailroom-bulk-data-"), "journal.sqlite"));
    let transactions = 0;
    class FailingWriter extends JournalWriter {
      override transaction<T>(fn: () => T): T {
        if (++transactions === 2) throw new Error("disk full");
        return super.transaction(fn);
      }
    }
    const writer = new FailingWriter(db, () => NOW);
    const reader = await openIgnite(root);
    if (!reader) throw new Error("not a workspace");
    const source = { id: "s", protocol: "ignite" as const, root, reader, error: null };
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(scanSource(source, writer, { reportProgress: false, chunkFiles: CHUNK_FILES })).rejects.toThrow("disk full");
    errors.mockRestore();
    // The first chunk stays (less its dead letters, which wait for the end of a load).
    expect(db.prepare("SELECT count(*) FROM messages").pluck().get()).toBeGreaterThan(CHUNK_FILES * 0.95);
    expect(db.prepare("SELECT count(*) FROM deferred_indexes").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'messages_sort'").pluck().get()).toBe(1);
    await scanSource(source, writer, { reportProgress: false });
    const complete = await scanned(root, "bulk");
    expect(rowsOf(db)).toEqual(complete.rows);
    complete.db.close();
    db.close();
  });

  it.each(["main thread", "worker threads"])("settles each chunk's messages right after its commit, before its claim (%s)", async (where) => {
    const { db, writer, source } = await threeChunks();
    const seen: { rows: number; claim: unknown }[] = [];
    const claimOf = () => db.prepare("SELECT value FROM meta WHERE name = 'complete_after:s'").pluck().get();
    await scanSource(source, writer, {
      reportProgress: false, workersMinFiles: where === "main thread" ? Infinity : 0, chunkFiles: CHUNK_FILES,
      afterChunk: () => seen.push({ rows: db.prepare("SELECT count(*) FROM messages").pluck().get() as number, claim: claimOf() }),
    });
    expect(seen).toHaveLength(3);
    // Rows of one more chunk at each call; the claim is the one before it (set after the settling).
    expect(seen.map((s) => s.rows)).toEqual([...seen.map((s) => s.rows)].sort((a, b) => a - b));
    expect(seen[0]?.rows).toBeGreaterThan(0);
    expect(seen[0]?.claim ?? null).toBeNull();
    db.close();
  });

  it("finishes on the main thread when loading on worker threads fails part-way, with nothing lost or doubled", async () => {
    const { root, db, writer, source } = await threeChunks();
    const realLoad = IngestWorkers.prototype.load;
    let calls = 0;
    const load = vi.spyOn(IngestWorkers.prototype, "load").mockImplementation(function (this: IngestWorkers, ...args) {
      return ++calls === 2 ? Promise.reject(new Error("worker exited")) : realLoad.apply(this, args);
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await scanSource(source, writer, { reportProgress: false, workersMinFiles: 0, chunkFiles: CHUNK_FILES });
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("loading on worker threads failed"), expect.any(Error));
    errors.mockRestore();
    load.mockRestore();
    const complete = await scanned(root, "file by file");
    expect(rowsOf(db)).toEqual(complete.rows);
    complete.db.close();
    db.close();
  });

  it("hands out no more chunks once the service stops, keeps what it loaded with its indexes, and does not fall back", async () => {
    const { root, db, writer, source } = await threeChunks();
    let asked = 0;
    const errors = vi.spyOn(console, "error");
    // Stopping as soon as the first chunk is out.
    await scanSource(source, writer, { reportProgress: false, workersMinFiles: 0, chunkFiles: CHUNK_FILES, stopped: () => ++asked > 1 });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    const loaded = db.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    expect(loaded).toBeGreaterThan(CHUNK_FILES * 0.95);
    expect(loaded).toBeLessThan(CHUNK_FILES * 1.05);
    expect(db.prepare("SELECT count(*) FROM deferred_indexes").pluck().get()).toBe(0);
    // The next start's scan completes it.
    await scanSource(source, writer, { reportProgress: false });
    const complete = await scanned(root, "file by file");
    expect(rowsOf(db)).toEqual(complete.rows);
    complete.db.close();
    db.close();
  });

  it("lets the stuck sweep run between chunks, and ends with the journal the writer builds", async () => {
    const { root, db, writer, source } = await threeChunks();
    const load = IngestWorkers.prototype.load;
    const stuckMidLoad: number[] = [];
    // The service's once-a-second sweep, run here as each chunk comes back.
    const spy = vi.spyOn(IngestWorkers.prototype, "load").mockImplementation(async function (this: IngestWorkers, ...args) {
      const loaded = await load.apply(this, args);
      writer.refreshStuck(300_000);
      stuckMidLoad.push(db.prepare("SELECT coalesce(sum(stuck), 0) FROM agent_counts").pluck().get() as number);
      return loaded;
    });
    try {
      await scanSource(source, writer, { reportProgress: false, workersMinFiles: 0, chunkFiles: CHUNK_FILES });
    } finally {
      spy.mockRestore();
    }
    // The chunks come back in any order, and a small one may hold no stuck message: the sweeps
    // count what the load wrote so far, so the last one mid-load sees them all. (The first chunk
    // of a newest-first load is read on the main thread, while the workers start.)
    expect(stuckMidLoad.length).toBe(2);
    expect(Math.max(...stuckMidLoad)).toBeGreaterThan(0);
    writer.refreshStuck(300_000);
    const complete = await scanned(root, "file by file");
    new JournalWriter(complete.db, () => NOW).refreshStuck(300_000);
    expect(rowsOf(db)).toEqual(rowsOf(complete.db));
    const counts = (d: Db) => d.prepare("SELECT * FROM agent_counts WHERE source = 's' AND n > 0 ORDER BY agent, dead_letter, status").all();
    expect(counts(db)).toEqual(counts(complete.db));
    complete.db.close();
    db.close();
  });

  it("starts the workers while the tree is still being listed, once it is big enough, and lists it again on them", async () => {
    const { db, writer, source } = await threeChunks();
    const steps: string[] = [];
    const realOpen = IngestWorkers.open.bind(IngestWorkers);
    vi.spyOn(IngestWorkers, "open").mockImplementation((size) => {
      steps.push("workers started");
      return realOpen(size);
    });
    const list = source.reader.list;
    source.reader.list = async (opts) => {
      const found = await list(opts).catch((err: unknown) => {
        steps.push("listing here stopped");
        throw err;
      });
      steps.push("listing done");
      return found;
    };
    const scanned = await scanSource(source, writer, { reportProgress: false, workersMinFiles: 100, chunkFiles: CHUNK_FILES });
    vi.restoreAllMocks();
    expect(steps).toEqual(["workers started", "listing here stopped"]);
    expect(scanned.load).toMatchObject({ listedOn: 2, workers: 2 });
    expect(db.prepare("SELECT count(*) FROM messages").pluck().get()).toBeGreaterThan(440);
    db.close();
  });

  it("stops workers it started for a listing that then fails, here and on them", async () => {
    const { root, db, writer, source } = await threeChunks();
    const close = vi.spyOn(IngestWorkers.prototype, "close");
    let calls = 0;
    source.reader.list = async (opts) => {
      // The workers open the workspace afresh: gone, they fail, and the listing falls back to here.
      if (calls++ === 0) fs.rmSync(path.join(root, ".ignite"), { recursive: true });
      opts?.onListed?.(5000);
      throw new Error("EIO: the queue folder went away");
    };
    await expect(scanSource(source, writer, { reportProgress: false, workersMinFiles: 1000 })).rejects.toThrow("EIO");
    expect(calls).toBe(2);
    expect(close).toHaveBeenCalledTimes(1);
    close.mockRestore();
    db.close();
  });

  it("brings back indexes and the insert triggers a load left set aside when it stopped mid-way, and redoes the triggers' work", () => {
    const file = path.join(temp("mailroom-bulk-data-"), "journal.sqlite");
    const indexNames = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name").pluck().all();
    let db = openDb(file);
    const before = indexNames(db);
    deferIndexes(db, ["messages", "events"], { triggers: LOAD_SETS_ASIDE });
    // The entries tables' indexes (migration 19) are not a load's to set aside: it writes only messages and events.
    const entryIndexes = ["entries_documents", "entries_message_id", "entries_place", "entry_refs_entry", "entry_refs_target"];
    expect(indexNames(db)).toEqual(["agent_counts_delete", "agent_counts_update", ...entryIndexes, "hour_counts_delete", "hour_counts_update", "message_raw_delete", "thread_last_delete", "thread_last_update"]);
    // A message journaled while the triggers were away (a load's end failed; live ingest went on).
    new JournalWriter(db).record(fileRecord("queue/leader/a.mime", { messageId: "<a@x>", threadId: "thr_1" }));
    db.close(); // as if the process died here
    db = openDb(file);
    expect(indexNames(db)).toEqual(before);
    // The kept tables are filled again from the messages.
    expect(db.prepare("SELECT agent, status, n FROM agent_counts WHERE n > 0").all()).toEqual([{ agent: "leader", status: "queued", n: 1 }]);
    expect(db.prepare("SELECT thread_key FROM thread_last").pluck().all()).toEqual(["h\x1fthr_1"]);
    expect(db.prepare("SELECT agent, n FROM hour_agent_counts").all()).toEqual([{ agent: "leader", n: 1 }]);
    expect(db.prepare("SELECT count(*) FROM deferred_indexes").pluck().get()).toBe(0);
    db.close();
  });
});
