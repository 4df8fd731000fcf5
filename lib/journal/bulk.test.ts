import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { LOAD_BESIDE_AT_MOST } from "./bulk";
import { openDb } from "./db";
import { restoreIndexes } from "./deferred-indexes";
import { makeKey } from "./keys";
import { pageSql } from "./queries";
import { JournalWriter } from "./writer";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A new journal in a temp folder, and a writer whose clock stands at `nowMs`. */
function emptyJournal(nowMs: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bulk-"));
  dirs.push(dir);
  const db = openDb(path.join(dir, "journal.sqlite"));
  return { db, writer: new JournalWriter(db, () => nowMs) };
}

it("gives a file whose key is taken the next attempt's key, as the writer does", () => {
  const { db, writer } = emptyJournal(5_000);
  const bulk = writer.beginBulkLoad();
  // Keys come from the origin path and Message-ID: two files sharing both start from the same key.
  const rec = fileRecord("queue/leader/same.mime", { messageId: "<same@x>" });
  const twin = { ...rec, relPath: "queue/leader/processed/same.mime", found: { mtimeMs: 2_000, size: 10, ino: 2 } };
  bulk?.add("ws-ignite", [rec, twin], 2);
  bulk?.finish("ws-ignite");
  const keys = db.prepare("SELECT key FROM messages ORDER BY id").pluck().all();
  expect(keys).toEqual([0, 1].map((attempt) => makeKey("ws-ignite", "queue/leader/same.mime", "<same@x>", attempt)));
  expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'seen'").pluck().get()).toBe(2);
  // One Message-ID in two files: finish() flags both, as the writer would.
  expect(db.prepare("SELECT duplicate FROM messages ORDER BY id").pluck().all()).toEqual([1, 1]);
  db.close();
});

it("flags as duplicates only present files of the loaded source, though the Message-ID is elsewhere too", () => {
  const { db, writer } = emptyJournal(5_000);
  const bulk = writer.beginBulkLoad();
  const here = fileRecord("queue/leader/a.mime", { messageId: "<a@x>" });
  const gone = { ...fileRecord(null, { messageId: "<b@x>" }), originPath: "queue/leader/b.mime" };
  const kept = fileRecord("queue/leader/b.mime", { messageId: "<b@x>" });
  bulk?.add("ws-ignite", [here, gone, kept], 3);
  bulk?.add("ws-other", [{ ...here, source: "ws-other" }], 1);
  bulk?.finish("ws-ignite");
  // <a@x> is in two sources, <b@x> twice in one, once as a message whose file is gone: no duplicate.
  expect(db.prepare("SELECT duplicate FROM messages ORDER BY id").pluck().all()).toEqual([0, 0, 0, 0]);
  db.close();
});

it("keeps only the indexes few loaded rows enter during a load, and they stay right", () => {
  const { db, writer } = emptyJournal(1_000_000);
  const indexes = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL ORDER BY name").pluck().all();
  const all = indexes();
  const bulk = writer.beginBulkLoad();
  expect(indexes()).toEqual([
    "messages_dead_letter_of", "messages_dead_letters", "messages_in_reply_to", "messages_message_id", "messages_processing_unstuck", "messages_prunable",
    "messages_sort", "messages_stuck_sort",
  ]);
  // The newest page, polled while a first scan loads newest first, reads off an index instead of sorting what is loaded.
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${pageSql("1")}`).all(101) as { detail: string }[];
  expect(plan.map((p) => p.detail).join("; ")).not.toContain("TEMP B-TREE");
  bulk?.add("ws-ignite", [fileRecord("queue/evaluator/processed/p.mime", { status: "processing" }, { mtimeMs: 1, size: 1, ino: 1 })], 1);
  // The stuck sweep names its index (writer.ts), so it works mid-load.
  expect(writer.refreshStuck(300_000)).toBe(1);
  bulk?.finish("ws-ignite");
  expect(indexes()).toEqual(all);
  expect(db.prepare("SELECT count(*) FROM messages INDEXED BY messages_stuck_sort WHERE stuck = 1").pluck().get()).toBe(1);
  expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  db.close();
});

it("keeps the overview's and the charts' counts current at every chunk while their triggers are set aside, and never counts twice", () => {
  const { db, writer } = emptyJournal(1_000_000);
  const counts = () => db.prepare("SELECT agent, dead_letter, status, n, stuck, last_ms FROM agent_counts WHERE n > 0 ORDER BY 1, 2, 3").all();
  const trigger = () => db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'agent_counts_insert'").pluck().get();
  const bulk = writer.beginBulkLoad();
  expect(trigger()).toBe(0);
  bulk?.add("ws-ignite", [
    fileRecord("queue/leader/a.mime", { messageId: "<a@x>", threadId: "thr_1", date: "2026-11-20T00:00:01.000Z" }, { mtimeMs: 10, size: 1, ino: 1 }),
    fileRecord("queue/leader/b.mime", { messageId: "<b@x>", threadId: "thr_1", date: "2026-11-20T00:00:02.000Z" }, { mtimeMs: 30, size: 1, ino: 2 }),
    fileRecord("queue/leader/processed/c.mime", { messageId: "<c@x>", status: "delivered" }, { mtimeMs: 20, size: 1, ino: 3 }),
  ], 3);
  // Before finish(): what a poll sees mid-load.
  expect(counts()).toEqual([
    { agent: "leader", dead_letter: 0, status: "delivered", n: 1, stuck: 0, last_ms: 20 },
    { agent: "leader", dead_letter: 0, status: "queued", n: 2, stuck: 0, last_ms: 30 },
  ]);
  // And each thread's last activity.
  expect(db.prepare("SELECT thread_key, last_ms FROM thread_last").all()).toEqual([{ thread_key: "h\x1fthr_1", last_ms: Date.parse("2026-11-20T00:00:02.000Z") }]);
  // And the charts' counts per hour (migration 22), as the messages counted one by one.
  const hours = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all();
  const scan = (column: string) => db.prepare(`SELECT sort_ms / 3600000, ${column}, COUNT(*) FROM messages GROUP BY 1, 2 ORDER BY 1, 2`).raw().all();
  expect(hours("hour_agent_counts")).toEqual(scan("agent"));
  expect(hours("hour_type_counts")).toEqual(scan("coalesce(type, '(no type)')"));
  bulk?.add("ws-ignite", [fileRecord("queue/leader/d.mime", { messageId: "<d@x>" }, { mtimeMs: 5, size: 1, ino: 4 })], 1);
  expect(counts()).toContainEqual({ agent: "leader", dead_letter: 0, status: "queued", n: 3, stuck: 0, last_ms: 30 });
  expect(hours("hour_agent_counts")).toEqual(scan("agent"));
  const seq = db.prepare("SELECT value FROM meta WHERE name = 'seq'").pluck().get() as number;
  bulk?.finish("ws-ignite");
  expect(trigger()).toBe(1);
  // Settling threads after the load moves the seq, so what caches by it computes again.
  expect(db.prepare("SELECT value FROM meta WHERE name = 'seq'").pluck().get()).toBeGreaterThan(seq);
  // The trigger is back: a message written after the load is counted once.
  writer.record(fileRecord("queue/leader/e.mime", { messageId: "<e@x>" }, { mtimeMs: 40, size: 1, ino: 5 }));
  expect(counts()).toContainEqual({ agent: "leader", dead_letter: 0, status: "queued", n: 4, stuck: 0, last_ms: 40 });
  db.close();
});

it("leaves the triggers' work to them once they are back mid-load: a row is counted once", () => {
  const { db, writer } = emptyJournal(1_000_000);
  const queued = () => db.prepare("SELECT n FROM agent_counts WHERE agent = 'leader' AND status = 'queued'").pluck().get();
  const bulk = writer.beginBulkLoad();
  bulk?.add("ws-ignite", [fileRecord("queue/leader/a.mime", { messageId: "<a@x>" }, { mtimeMs: 10, size: 1, ino: 1 })], 1);
  expect(queued()).toBe(1);
  // Another opener repaired the journal meanwhile (indexes and triggers back).
  restoreIndexes(db);
  bulk?.add("ws-ignite", [fileRecord("queue/leader/b.mime", { messageId: "<b@x>" }, { mtimeMs: 20, size: 1, ino: 2 })], 1);
  expect(queued()).toBe(2);
  bulk?.finish("ws-ignite");
  db.close();
});

it("loads in bulk beside a few messages of other sources, not beside the source's own nor beside many", () => {
  const { db, writer } = emptyJournal(5_000);
  const add = (source: string, n: number) => {
    const bulk = writer.beginBulkLoad();
    const records = Array.from({ length: n }, (_, i) => ({ ...fileRecord(`queue/leader/m${i}.mime`, { messageId: `<${source}-${i}@x>` }, { mtimeMs: i, size: 1, ino: i + 1 }), source }));
    bulk?.add(source, records, n);
    bulk?.finish(source);
  };
  add("ws-other", 3);
  const beside = writer.beginBulkLoad("ws-ignite");
  expect(beside).not.toBeNull();
  beside?.finish("ws-ignite");
  // A file of the source's own, gone and back, would be inserted twice.
  expect(writer.beginBulkLoad("ws-other")).toBeNull();
  add("ws-third", LOAD_BESIDE_AT_MOST);
  expect(writer.beginBulkLoad("ws-ignite")).toBeNull();
  expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  db.close();
});
