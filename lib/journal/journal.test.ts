import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { checkpointPages, JournalVersionError, migrate, openDb, WAL_SIZE_LIMIT, type Db } from "./db";
import { compileFilter } from "./filter";
import { currentSeq, pageSql, queryChanges, queryContent, queryHistory, queryPage, querySummary } from "./queries";
import { queryStats } from "./stats";
import { FILE_IDENTITIES_SQL } from "./files";
import { SCHEMA_VERSION } from "./schema";
import { JournalWriter } from "./writer";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import type { MessagePage } from "@/lib/model";

const require = createRequire(import.meta.url);

let journal: TempJournal;
let dir: string;
let db: Db;
let now: number;
let writer: JournalWriter;

beforeEach(() => {
  now = Date.parse("2026-11-20T01:00:00Z");
  journal = openTempJournal(() => now);
  ({ dir, db, writer } = journal);
});
afterEach(() => journal.close());

describe("a rescan's view of the journal", () => {
  it("reads every file's identity from the covering index, not the table", () => {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${FILE_IDENTITIES_SQL}`).all("s", "") as { detail: string }[]).map((r) => r.detail);
    expect(plan).toEqual([expect.stringContaining("USING COVERING INDEX messages_files")]);
  });
});

describe("migrations", () => {
  /** A journal written at schema `version` and filled by `fill`, opened (so migrated) by today's code. */
  function reopenedFrom(version: number, fill: (old: Db) => void): Db {
    const file = path.join(dir, `v${version}.sqlite`);
    const old = new Database(file);
    migrate(old, version);
    fill(old);
    old.close();
    return openDb(file);
  }

  it("opens a journal written by an older version and keeps its messages", () => {
    const reopened = reopenedFrom(1, (old) =>
      old.prepare(
        `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, status, updated_ms, seq)
         VALUES ('old-1', 's', 'ignite', 1, 'leader', 'queue', 'queue/leader/a.mime', 'queue/leader/a.mime', 'queued', 1, 1)`,
      ).run(),
    );
    expect(reopened.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(querySummary(reopened, "old-1")).toMatchObject({ key: "old-1", status: "queued", nextRetryAt: null });
    reopened.close();
  });

  it("discards a dead message whose dead letters were all archived before this version (migration 16)", () => {
    const reopened = reopenedFrom(15, (old) => {
      const insert = old.prepare(
        `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, status, updated_ms, seq, dead_letter_of)
         VALUES (?, 's', 'ignite', 1, 'leader', ?, ?, ?, ?, 1, 1, ?)`,
      );
      insert.run("discarded-1", "processed", null, "queue/leader/processed/a.mime", "dead", null);
      insert.run("letter-1", "archive", "archive/mailroom/queue/dead_letter/a_dlq.mime", "archive/mailroom/queue/dead_letter/a_dlq.mime", "discarded", "discarded-1");
      insert.run("dead-2", "processed", null, "queue/leader/processed/b.mime", "dead", null);
      insert.run("letter-2", "dead_letter", "queue/dead_letter/b_dlq.mime", "queue/dead_letter/b_dlq.mime", "dead", "dead-2");
    });
    try {
      expect(querySummary(reopened, "discarded-1")).toMatchObject({ status: "discarded", path: null });
      expect(queryHistory(reopened, "discarded-1").map((e) => [e.kind, e.detail])).toEqual([["status", "dead → discarded"]]);
      expect(querySummary(reopened, "dead-2")).toMatchObject({ status: "dead" });
      expect(reopened.prepare("SELECT value FROM meta WHERE name = 'seq'").pluck().get()).toBe(1);
      expect(reopened.prepare("SELECT seq FROM messages WHERE key = 'discarded-1'").pluck().get()).toBe(1);
    } finally {
      reopened.close();
    }
  });

  it("moves each message's bytes out of its row (migration 15), and drops them with the message", () => {
    const reopened = reopenedFrom(14, (old) => {
      const insert = old.prepare(
        `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, status, updated_ms, seq, raw)
         VALUES (?, 's', 'ignite', 1, 'leader', 'queue', ?, ?, 'queued', 1, 1, ?)`,
      );
      insert.run("kept-1", "queue/leader/a.mime", "queue/leader/a.mime", Buffer.from("From: a\n\nbody: 1\n"));
      insert.run("big-1", "queue/leader/b.mime", "queue/leader/b.mime", null);
    });
    try {
      const columns = reopened.prepare("SELECT name FROM pragma_table_info('messages')").pluck().all();
      expect(columns).not.toContain("raw");
      expect(queryContent(reopened, "kept-1")?.raw?.toString()).toBe("From: a\n\nbody: 1\n");
      expect(queryContent(reopened, "big-1")).toMatchObject({ raw: null, path: "queue/leader/b.mime" });
      reopened.prepare("DELETE FROM messages WHERE key = 'kept-1'").run();
      expect(reopened.prepare("SELECT count(*) FROM message_raw").pluck().get()).toBe(0);
    } finally {
      reopened.close();
    }
  });

  it("refuses a journal from a newer version with a clear message", () => {
    const file = path.join(dir, "new.sqlite");
    const newer = new Database(file);
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    expect(() => openDb(file)).toThrow(JournalVersionError);
    expect(() => openDb(file)).toThrow(/newer than this Mailroom knows/);
  });

  it("uses WAL so readers never wait for the writer", () => {
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  });

  it("cuts the WAL back after one big transaction, once a checkpoint has emptied it", () => {
    const wal = `${db.name}-wal`;
    db.exec("CREATE TABLE bulk (b BLOB)");
    const insert = db.prepare("INSERT INTO bulk VALUES (?)");
    const mib = Buffer.alloc(1024 * 1024, 7);
    db.transaction(() => {
      for (let i = 0; i < 80; i++) insert.run(mib);
    })();
    expect(fs.statSync(wal).size).toBeGreaterThan(WAL_SIZE_LIMIT);
    db.pragma("wal_checkpoint(PASSIVE)");
    db.prepare("DELETE FROM bulk").run(); // the next write starts the WAL over, and cuts it
    expect(fs.statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
  });

  it("checkpoints the WAL only once it reaches its size limit, not after SQLite's 1,000 pages", () => {
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(checkpointPages(db));
    db.exec("CREATE TABLE bulk (b BLOB)");
    const insert = db.prepare("INSERT INTO bulk VALUES (?)");
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    // 1,500 pages' worth, in commits of 100 pages, as a steady writer commits.
    for (let c = 0; c < 15; c++) db.transaction(() => insert.run(Buffer.alloc(100 * pageSize, c)))();
    const [frames] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    expect(frames?.log).toBeGreaterThanOrEqual(1500);
  });
});

describe("JournalWriter", () => {
  it("keeps a message's key when it moves queue → processed/ and records the step", () => {
    const first = writer.record(fileRecord("queue/strategist/a.mime"));
    const moved = writer.record(
      fileRecord("queue/strategist/processed/a.mime", { status: "processing", rawStatus: "processing" }, { mtimeMs: 2_000, size: 12, ino: 1 }),
      first.key,
    );
    expect(moved).toEqual({ key: first.key, change: "moved" });
    expect(querySummary(db, first.key)).toMatchObject({ path: "queue/strategist/processed/a.mime", folder: "processed", status: "processing" });
    expect(queryHistory(db, first.key).map((e) => e.kind)).toEqual(["seen", "moved"]);
  });

  it("ignores an unchanged file and records a status change in place", () => {
    const rec = fileRecord("queue/strategist/processed/a.mime", { status: "processing" });
    const { key } = writer.record(rec);
    expect(writer.record(rec).change).toBe("unchanged");
    writer.record(fileRecord("queue/strategist/processed/a.mime", { status: "delivered" }, { mtimeMs: 5_000, size: 11, ino: 1 }));
    expect(queryHistory(db, key).at(-1)).toMatchObject({ kind: "status", detail: "processing → delivered" });
  });

  it("keeps a file's latest bytes, only its head once it is too big to keep, and none once unreadable", () => {
    const rec = fileRecord("queue/leader/a.mime", { messageId: "<a@x>" });
    const { key } = writer.record({ ...rec, raw: Buffer.from("first") });
    writer.record({ ...rec, found: { ...rec.found, mtimeMs: 2 }, raw: Buffer.from("second") });
    expect(queryContent(db, key)).toMatchObject({ raw: Buffer.from("second"), rawIsHead: false });
    writer.record({ ...rec, found: { ...rec.found, mtimeMs: 3, size: 9 * 1024 * 1024 }, raw: Buffer.from("head"), rawIsHead: true });
    expect(queryContent(db, key)).toMatchObject({ raw: Buffer.from("head"), rawIsHead: true, path: "queue/leader/a.mime" });
    // Back under the limit: whole again, so it is the download once the file is gone.
    writer.record({ ...rec, found: { ...rec.found, mtimeMs: 4 }, raw: Buffer.from("third") });
    expect(queryContent(db, key)).toMatchObject({ raw: Buffer.from("third"), rawIsHead: false });
    writer.record({ ...rec, found: { ...rec.found, mtimeMs: 5 }, raw: null });
    expect(queryContent(db, key)).toMatchObject({ raw: null, path: "queue/leader/a.mime" });
    expect(db.prepare("SELECT count(*) FROM message_raw").pluck().get()).toBe(0);
  });

  it("keeps a deleted message as completed, with its content", () => {
    const { key } = writer.record(fileRecord("queue/strategist/processed/a.mime", { status: "delivered" }));
    expect(writer.markGone("ws-ignite", "queue/strategist/processed/a.mime")).toBe(key);
    expect(querySummary(db, key)).toMatchObject({ path: null, status: "completed", preview: "goal: test" });
  });

  it("marks a message held by a dead letter as dead when its file goes", () => {
    const orig = writer.record(fileRecord("queue/ignitian_2/processed/t.mime", { messageId: "<o@x>", status: "processing", rawStatus: "processing" }));
    const dl = writer.record(fileRecord("queue/dead_letter/t_dlq_1.mime", { messageId: "<d@x>", status: "dead", type: "dead_letter" }));
    writer.linkDeadLetter(dl.key, orig.key, "after 3 retries");
    writer.markGone("ws-ignite", "queue/ignitian_2/processed/t.mime");
    expect(querySummary(db, orig.key)?.status).toBe("dead");
    expect(querySummary(db, dl.key)?.deadLetterOf).toBe(orig.key);
    // Its file's last word was "processing"; a search by status goes by what it is now.
    expect(queryPage(db, parseQuery("status:processing", VOCABULARY), 10, null).items).toEqual([]);
    expect(queryPage(db, parseQuery("status:dead -status:processing", VOCABULARY), 10, null).items.map((m) => m.key).sort()).toEqual([orig.key, dl.key].sort());
  });

  it("dates a dead-lettering by the dead letter, not by when Mailroom read it", () => {
    const orig = writer.record(fileRecord("queue/ignitian_2/processed/t.mime", { messageId: "<o@x>", date: "2026-11-19T00:00:00.000Z" }));
    const dl = writer.record(fileRecord("queue/dead_letter/t_dlq_1.mime", { messageId: "<d@x>", status: "dead", type: "dead_letter", date: "2026-11-19T06:00:00.000Z" }));
    writer.linkDeadLetter(dl.key, orig.key, "after 3 retries");
    expect(queryHistory(db, orig.key).find((e) => e.kind === "dead-lettered")?.at).toBe("2026-11-19T06:00:00.000Z");
  });

  it("flags two files with the same Message-ID at once as duplicates", () => {
    const a = writer.record(fileRecord("queue/leader/a.mime", { messageId: "<same@x>" }));
    const b = writer.record(fileRecord("queue/leader/b.mime", { messageId: "<same@x>" }, { mtimeMs: 1, size: 1, ino: 2 }));
    expect(a.key).not.toBe(b.key);
    expect(querySummary(db, a.key)?.duplicate).toBe(true);
    expect(querySummary(db, b.key)?.duplicate).toBe(true);
    writer.markGone("ws-ignite", "queue/leader/b.mime");
    expect(querySummary(db, a.key)?.duplicate).toBe(false);
  });

  it("marks processing messages stuck after the timeout and clears it when they move on", () => {
    const { key } = writer.record(fileRecord("queue/evaluator/processed/e.mime", { status: "processing" }, { mtimeMs: now - 301_000, size: 1, ino: 3 }));
    expect(writer.refreshStuck(300_000)).toBe(1);
    expect(querySummary(db, key)?.stuck).toBe(true);
    // Moving on clears the flag in the same write, before any sweep, so no poll sees both.
    writer.record(fileRecord("queue/evaluator/processed/e.mime", { status: "delivered" }, { mtimeMs: now, size: 2, ino: 3 }));
    expect(querySummary(db, key)?.stuck).toBe(false);
  });

  it("clears stuck when a still-processing file is rewritten, at the next sweep", () => {
    const path = "queue/evaluator/processed/r.mime";
    const { key } = writer.record(fileRecord(path, { status: "processing" }, { mtimeMs: now - 301_000, size: 1, ino: 4 }));
    writer.refreshStuck(300_000);
    writer.record(fileRecord(path, { status: "processing" }, { mtimeMs: now, size: 2, ino: 4 }));
    expect(querySummary(db, key)?.stuck).toBe(true);
    expect(writer.refreshStuck(300_000)).toBe(1);
    expect(querySummary(db, key)?.stuck).toBe(false);
  });

  /** A processing message swept stuck, then changed behind the journal's back (no write, no seq): a sweep that re-reads it clears it. */
  function stuckThenTouched(name: string, ino: number): string {
    const { key } = writer.record(fileRecord(`queue/evaluator/processed/${name}.mime`, { status: "processing" }, { mtimeMs: now - 301_000, size: 1, ino }));
    writer.refreshStuck(300_000);
    db.prepare("UPDATE messages SET mtime_ms = ? WHERE key = ?").run(now, key);
    return key;
  }

  it("checks only rows written since the last sweep, unless the threshold went back", () => {
    const key = stuckThenTouched("s", 5);
    expect(writer.refreshStuck(300_000)).toBe(0);
    expect(querySummary(db, key)?.stuck).toBe(true);
    // The last sweep is kept in the journal: a restarted server's writer goes on from it.
    const restarted = new JournalWriter(db, () => now);
    expect(restarted.refreshStuck(300_000)).toBe(0);
    // A longer timeout moves the threshold back: every stuck row is looked at again.
    expect(restarted.refreshStuck(600_000)).toBe(1);
    expect(querySummary(db, key)?.stuck).toBe(false);
  });

  it("checks every stuck row instead when fewer are stuck than were written since, and writes nothing when idle", () => {
    const key = stuckThenTouched("b", 6);
    // A burst of writes (more than the one stuck row) since the last sweep: reading the stuck rows is cheaper.
    for (let i = 0; i < 3; i++) writer.record(fileRecord(`queue/leader/burst_${i}.mime`, {}, { mtimeMs: now, size: 1, ino: 60 + i }));
    expect(writer.refreshStuck(300_000)).toBe(1);
    expect(querySummary(db, key)?.stuck).toBe(false);
    const changes = () => db.prepare("SELECT total_changes()").pluck().get();
    const before = changes();
    now += 5_000;
    expect(writer.refreshStuck(300_000)).toBe(0);
    expect(changes()).toBe(before);
  });

  it("marks stuck messages all at once or not at all", () => {
    const keys = ["a", "b"].map((n, i) =>
      writer.record(fileRecord(`queue/evaluator/processed/${n}.mime`, { status: "processing" }, { mtimeMs: now - 301_000, size: 1, ino: 10 + i })).key,
    );
    db.exec(`CREATE TEMP TRIGGER refuse_second BEFORE INSERT ON events WHEN new.kind = 'stuck' AND new.key = '${keys[1]}'
      BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    expect(() => writer.refreshStuck(300_000)).toThrow("disk full");
    expect(keys.map((k) => querySummary(db, k)?.stuck)).toEqual([false, false]);
    db.exec("DROP TRIGGER refuse_second");
    expect(writer.refreshStuck(300_000)).toBe(2);
  });

  it("waits its turn when another connection is writing (as a load's worker does)", async () => {
    const { key } = writer.record(fileRecord("queue/evaluator/processed/w.mime", { status: "processing" }, { mtimeMs: now - 301_000, size: 1, ino: 20 }));
    // Another thread holds the write lock for a moment; this thread's sweep must wait, not fail.
    const holder = new Worker(
      `const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
      const db = new Database(${JSON.stringify(db.name)});
      db.exec("BEGIN IMMEDIATE");
      require("node:worker_threads").parentPort.postMessage("locked");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      db.exec("COMMIT");`,
      { eval: true },
    );
    await new Promise((resolve) => holder.once("message", resolve));
    expect(writer.refreshStuck(300_000)).toBe(1);
    expect(querySummary(db, key)?.stuck).toBe(true);
    await holder.terminate();
  });
});

describe("queries", () => {
  function seed(n: number) {
    for (let i = 0; i < n; i++) {
      writer.record(
        fileRecord(`queue/leader/m${i}.mime`, { messageId: `<${i}@x>`, date: new Date(Date.UTC(2026, 10, 20, 0, i)).toISOString(), from: i % 2 ? "coordinator" : "strategist" }, { mtimeMs: i, size: 1, ino: 100 + i }),
      );
    }
  }

  it("pages newest first with a cursor that stays stable when messages arrive", () => {
    seed(5);
    const first = queryPage(db, [], 2, null);
    expect(first.items.map((m) => m.key.split("-")[0])).toEqual(["m4", "m3"]);
    writer.record(fileRecord("queue/leader/late.mime", { messageId: "<late@x>", date: "2026-11-21T00:00:00.000Z" }, { mtimeMs: 9, size: 1, ino: 999 }));
    const second = queryPage(db, [], 2, first.nextCursor);
    expect(second.items.map((m) => m.key.split("-")[0])).toEqual(["m2", "m1"]);
    const third = queryPage(db, [], 2, second.nextCursor);
    expect(third.items.map((m) => m.key.split("-")[0])).toEqual(["m0"]);
    expect(third.nextCursor).toBeNull();
  });

  it("answers a poll with only what changed, and names changes that left the filter", () => {
    seed(3);
    const { seq } = queryPage(db, [], 10, null);
    expect(queryChanges(db, [], seq, 100)).toMatchObject({ items: [], seq, removed: [], more: false });
    const key = writer.record(fileRecord("queue/leader/m0.mime", { messageId: "<0@x>", status: "processing", from: "strategist" }, { mtimeMs: 50, size: 2, ino: 100 })).key;
    const poll = queryChanges(db, parseQuery("status:queued", VOCABULARY), seq, 100);
    expect(poll.items).toEqual([]);
    expect(poll.removed).toEqual([key]);
    expect(poll.seq).toBeGreaterThan(seq);
  });

  /** Every answer from `since` until the poll catches up, as one poller sees them. */
  function pollUntilCurrent(q: string, since: number, limit: number) {
    const answers: MessagePage[] = [];
    for (let at = since; at < currentSeq(db); ) {
      const answer = queryChanges(db, parseQuery(q, VOCABULARY), at, limit);
      expect(answer.seq, "each answer moves the poll on").toBeGreaterThan(at);
      answers.push(answer);
      at = answer.seq;
    }
    const shortKey = (key: string) => key.split("-")[0];
    return {
      answers,
      items: answers.flatMap((a) => a.items.map((m) => shortKey(m.key))),
      removed: answers.flatMap((a) => (a.removed ?? []).map(shortKey)),
    };
  }

  it("answers a burst bigger than one answer in turns, each change once, and never as removed while it matches", () => {
    const { seq } = queryPage(db, [], 10, null);
    seed(7);
    const all = pollUntilCurrent("", seq, 2);
    expect(all.answers).toHaveLength(4);
    expect(all.answers.map((a) => a.more)).toEqual([true, true, true, false]);
    expect(all.items).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(all.removed).toEqual([]);

    // Odd ones are from coordinator: each change is in exactly one answer, as a match or as removed.
    const filtered = pollUntilCurrent("from:coordinator", seq, 2);
    expect(filtered.items).toEqual(["m1", "m3", "m5"]);
    expect(filtered.removed).toEqual(["m0", "m2", "m4", "m6"]);
  });

  it("ends an answer at the last change it read when many changes left the filter", () => {
    const { seq } = queryPage(db, [], 10, null);
    seed(10);
    // One answer row reads at most 4 changes: none of them match, and all are named removed, in turns.
    const none = pollUntilCurrent("from:nobody", seq, 1);
    expect(none.answers.map((a) => a.removed?.length)).toEqual([4, 4, 2]);
    // Cut short by the changes read, not by matches: still more to come.
    expect(none.answers.map((a) => a.more)).toEqual([true, true, false]);
    expect(none.removed).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"]);
    expect(none.items).toEqual([]);
  });

  it("filters by fields", () => {
    seed(4);
    expect(queryPage(db, parseQuery("from:coordinator", VOCABULARY), 10, null).items).toHaveLength(2);
    expect(queryPage(db, parseQuery("to:strategist agent:leader", VOCABULARY), 10, null).items).toHaveLength(4);
    expect(queryPage(db, parseQuery("-from:coordinator path:m*", VOCABULARY), 10, null).items).toHaveLength(2);
    // Anywhere in the path, case-sensitive with a wildcard or without; `_` and `%` are plain characters.
    expect(queryPage(db, parseQuery("path:leader/m1", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("path:Leader/m1", VOCABULARY), 10, null).items).toHaveLength(0);
    expect(queryPage(db, parseQuery("path:Leader/m*", VOCABULARY), 10, null).items).toHaveLength(0);
    expect(queryPage(db, parseQuery("path:m_", VOCABULARY), 10, null).items).toHaveLength(0);
    expect(queryPage(db, parseQuery("mid:2@x", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("mid:<2@x>", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("mid:*@x>", VOCABULARY), 10, null).items).toHaveLength(4);
    expect(queryPage(db, parseQuery("mid:2*", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("-mid:<1*", VOCABULARY), 10, null).items).toHaveLength(3);
    // The stored IDs end in ">": a pattern need not type it.
    expect(queryPage(db, parseQuery("mid:*@x", VOCABULARY), 10, null).items).toHaveLength(4);
    expect(queryPage(db, parseQuery("mid:2*@x", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("mid:<2*@x>", VOCABULARY), 10, null).items).toHaveLength(1);
    expect(queryPage(db, parseQuery("-mid:*@x", VOCABULARY), 10, null).items).toHaveLength(0);
  });

  it("analyzes the journal once it is filled, and again only once it has grown many times over", () => {
    const seqStat = () => db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'messages_seq'").pluck().get() as string | undefined;
    seed(40);
    writer.analyze();
    expect(seqStat()).toMatch(/^40 /);
    // A mark ANALYZE would overwrite ("noskipscan" is a valid stat option, so the planner still reads it).
    db.prepare("UPDATE sqlite_stat1 SET stat = stat || ' noskipscan' WHERE idx = 'messages_seq'").run();
    writer.analyze();
    expect(seqStat()).toMatch(/noskipscan$/);
    seed(1040);
    writer.analyze();
    expect(seqStat()).toMatch(/^1040 /);
  });

  it("finds a status newest first through an index in that order, common or rare, with nothing to sort", () => {
    seed(40);
    writer.analyze();
    for (const q of ["status:queued", "status:invalid", "is:dead"]) {
      const filter = compileFilter(parseQuery(q, VOCABULARY));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${pageSql(filter.where)}`).all(...filter.params, 51) as { detail: string }[]).map((r) => r.detail).join("; ");
      expect(plan, q).toMatch(/USING (COVERING )?INDEX messages_status_sort \(status=\?\)/);
      expect(plan, q).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("finds a type newest first through an index in that order, with nothing to sort", () => {
    seed(40);
    writer.analyze();
    const filter = compileFilter(parseQuery("type:task_assignment", VOCABULARY));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${pageSql(filter.where)}`).all(...filter.params, 51) as { detail: string }[]).map((r) => r.detail).join("; ");
    expect(plan).toMatch(/USING (COVERING )?INDEX messages_type_sort \(type=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it("counts every agent by status", () => {
    seed(2);
    writer.upsertSource({ id: "ws-ignite", protocol: "ignite", root: "/ws", error: null });
    writer.setAgents("ws-ignite", ["leader", "ignitian_2"]);
    const stats = queryStats(db);
    expect(stats.totals).toMatchObject({ messages: 2, queued: 2 });
    expect(stats.agents.map((a) => [a.agent, a.queued])).toEqual([["ignitian_2", 0], ["leader", 2]]);
  });
});
