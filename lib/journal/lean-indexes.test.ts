// Migration 23: the indexes no query needed are gone, two became one, and every query that read a
// dropped one still reads an index in its order (plans judged at the bench's scale, analyzed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database, { type Statement } from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOGS, catalogOf } from "@/lib/protocols/catalog";
import { fileRecord } from "@/lib/testing/parsed";
import { chartWindow, countsBy, hopSampling, hopSql, queryCharts } from "./charts";
import { migrate, openDb, type Db } from "./db";
import { queryFacets } from "./facets";
import { FILE_IDENTITIES_SQL } from "./files";
import { SCHEMA_VERSION } from "./schema";
import { queryStats } from "./stats";
import { LONG_HEADER_THREAD_IDS_SQL, REPLIES_TO_ANY_SQL, REPLIES_TO_SQL } from "./thread-sql";
import { JournalWriter } from "./writer";

const T0 = Date.parse("2026-11-20T00:00:00Z");
const HOUR = 3_600_000;
const DROPPED = ["messages_agent_status", "messages_status", "messages_stuck", "messages_chart"];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-lean-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const indexes = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL").pluck().all() as string[];
const columnsOf = (db: Db, index: string) => db.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno").pluck().all(index);

/** What the overview, the facets and a sub-hour chart answer: the same before and after the migration. */
function answers(db: Db) {
  const w = chartWindow(db, { window: { from: T0, to: T0 + 2 * HOUR } });
  return { stats: queryStats(db), facets: queryFacets(db), byAgent: countsBy(db, w, "agent"), byType: countsBy(db, w, "type") };
}

describe("migration 23", () => {
  it("applies to a version-22 journal, which answers as before", () => {
    const db = new Database(path.join(dir, "journal.sqlite"));
    try {
      migrate(db, 22);
      let now = T0;
      const writer = new JournalWriter(db, () => now);
      writer.upsertSource({ id: "ws-ignite", protocol: "ignite", root: dir, error: null });
      ["leader", "coder", "coder"].forEach((agent, i) => {
        now = T0 + i * 60_000;
        writer.record(fileRecord(`queue/${agent}/m${i}.mime`, { messageId: `<${i}@x>`, date: new Date(now).toISOString(), type: `t${i}` }, { mtimeMs: now, size: 1, ino: i }));
      });
      writer.record(fileRecord("queue/coder/processed/p.mime", { messageId: "<p@x>", status: "processing" }, { mtimeMs: T0, size: 1, ino: 9 }));
      // A file of many entries (written by the entry core with a locator) is not compared file by file.
      db.prepare(
        `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, locator, status, updated_ms, seq)
         VALUES ('e1', 'ws-ignite', 'ignite', ?, 'coder', 'queue', 'channel.jsonl', 'channel.jsonl', 'L1', 'queued', 0, 0)`,
      ).run(T0);
      expect(writer.refreshStuck(1)).toBe(1);
      const before = answers(db);

      migrate(db);

      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(indexes(db).filter((name) => DROPPED.includes(name))).toEqual([]);
      expect(columnsOf(db, "messages_sort")).toEqual(["sort_ms", "key", "agent", "type", "folder", "status", "priority"]);
      expect(db.prepare("SELECT count(*) FROM messages INDEXED BY messages_files WHERE path IS NOT NULL AND locator = ''").pluck().get()).toBe(4);
      expect(db.prepare(FILE_IDENTITIES_SQL).all("ws-ignite", "").map((r) => (r as { path: string }).path)).not.toContain("channel.jsonl");
      expect(answers(db)).toEqual(before);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      db.close();
    }
  });
});

/** Each statement `run` reads through the app's own code, with the values it was run with. */
function statementsOf(db: Db, run: () => void): { sql: string; params: unknown[] }[] {
  const proto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<"all" | "get" | "iterate", (this: Statement, ...a: unknown[]) => unknown>;
  const kept = { all: proto.all, get: proto.get, iterate: proto.iterate };
  const seen: { sql: string; params: unknown[] }[] = [];
  for (const name of ["all", "get", "iterate"] as const) {
    proto[name] = function (this: Statement, ...params: unknown[]) {
      seen.push({ sql: this.source, params });
      return kept[name].apply(this, params);
    };
  }
  try {
    run();
  } finally {
    Object.assign(proto, kept);
  }
  return seen;
}

/** A new journal at today's version, closed after `test`. */
function withJournal(test: (journal: Db) => void): void {
  const journal = openDb(path.join(dir, "journal.sqlite"));
  try {
    test(journal);
  } finally {
    journal.close();
  }
}

const planOf = (db: Db, s: { sql: string; params: unknown[] }) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).map((p) => p.detail).join("; ");

describe("the queries that read a dropped index", () => {
  it("read the index left in its place, never the whole table", () => {
    withJournal((journal) => {
    const insert = journal.prepare(
      `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, type, status, stuck, mtime_ms, updated_ms, seq)
       VALUES (?, 'ws-ignite', 'ignite', ?, ?, 'processed', ?, ?, ?, ?, ?, ?, 0, 0)`,
    );
    // The planner is judged on a journal the size of the bench's: 10,000 rows, analyzed.
    for (let i = 0; i < 10_000; i++) {
      const file = `queue/a${i % 7}/processed/m${i}.mime`;
      const status = i % 50 === 0 ? "processing" : i % 10 === 0 ? "queued" : "delivered";
      insert.run(`m${i}`, T0 + i * 1000, `a${i % 7}`, file, file, `type${i % 6}`, status, i % 500 === 0 ? 1 : 0, T0 + i);
    }
    journal.exec("ANALYZE");
    const w = chartWindow(journal, { window: { from: T0, to: T0 + 2 * HOUR } });
    const delivery = catalogOf("ignite").hops[0];
    if (!delivery) throw new Error("IGNITE has hops");
    const hops = hopSql([{ protocol: "ignite", hop: delivery }]);
    const read = [
      ...statementsOf(journal, () => {
        queryStats(journal);
        queryFacets(journal);
        queryCharts(journal, { window: { from: T0, to: T0 + 2 * HOUR } }, CATALOGS);
        hopSampling(journal, { ...w, from: T0 + 30 * 60_000 });
        new JournalWriter(journal).refreshStuck(1);
      }),
      { sql: hops.sql, params: hops.params(w, 3) },
      { sql: FILE_IDENTITIES_SQL, params: ["ws-ignite", ""] },
    ].filter((s) => /\bFROM messages\b/.test(s.sql));
    const plans = new Map(read.map((s) => [s.sql.replace(/\s+/g, " "), planOf(journal, s)]));
    const planFor = (start: string) => [...plans].filter(([sql]) => sql.startsWith(start)).map(([, plan]) => plan);
    // (A row of a source, any row: LIMIT 1 stops at the first.)
    for (const [sql, plan] of plans) if (!sql.endsWith("LIMIT 1")) expect(plan, sql).not.toMatch(/SCAN messages(?! USING)|SCAN m(?! USING)\b/);
    // The overview's waiting messages: by status (migration 12's index).
    expect(planFor("SELECT source, agent, status, count(*) AS n, MIN(mtime_ms)")).toEqual([expect.stringContaining("USING INDEX messages_status_sort (status=?)")]);
    // The distinct agents: a skip-scan of the agent's timeline index.
    expect(planFor("WITH RECURSIVE v(x) AS ( SELECT (SELECT MIN(agent)")).toEqual([expect.stringMatching(/COVERING INDEX messages_agent_sort\b.*COVERING INDEX messages_agent_sort \(agent>\?\)/)]);
    // A sub-hour chart's counts, the window's ends and the hop sample: the timeline's index, covering.
    for (const start of ["SELECT CAST((sort_ms - ?) / ? AS INTEGER) AS b, agent", "SELECT CAST((sort_ms - ?) / ? AS INTEGER) AS b, coalesce(type", "SELECT count(*) FROM messages WHERE sort_ms"]) {
      expect(planFor(start), start).toEqual([expect.stringContaining("USING COVERING INDEX messages_sort (sort_ms>? AND sort_ms<?)")]);
    }
    expect(plans.get(hops.sql.replace(/\s+/g, " "))).toContain("SEARCH messages USING COVERING INDEX messages_sort (sort_ms>? AND sort_ms<?)");
    // The stuck ones, all of them when the sweep has no earlier sweep to go on from.
    expect(planFor("SELECT key FROM messages WHERE stuck = 1")).toEqual([expect.stringContaining("messages_stuck_sort")]);
    expect(plans.get(FILE_IDENTITIES_SQL.replace(/\s+/g, " "))).toContain("USING COVERING INDEX messages_files");
    });
  });
});

describe("migration 24", () => {
  it("keeps the place of one-message files only, and the writer finds a file through it", () => {
    withJournal((journal) => {
    expect(columnsOf(journal, "messages_path")).toEqual(["source", "path"]);
    const insert = journal.prepare(
      `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, locator, status, updated_ms, seq)
       VALUES (?, 's', 'kicklang', 0, 'general', 'channels', ?, ?, ?, 'sent', 0, 0)`,
    );
    // Entries of one file (their place is entries_place's, which keeps it unique), and a one-message file.
    insert.run("e1", "c/general.jsonl", "c/general.jsonl", "id-1");
    insert.run("e2", "c/general.jsonl", "c/general.jsonl", "id-2");
    insert.run("f1", "queue/a/m.yaml", "queue/a/m.yaml", "");
    expect(() => insert.run("f2", "queue/a/m.yaml", "queue/a/m.yaml", "")).toThrow(/UNIQUE/);
    expect(journal.prepare("SELECT key FROM messages INDEXED BY messages_path WHERE path IS NOT NULL AND locator = ''").pluck().all()).toEqual(["f1"]);
    const writer = new JournalWriter(journal);
    const read = statementsOf(journal, () => {
      expect(writer.known("s", "queue/a/m.yaml")?.key).toBe("f1");
      expect(writer.known("s", "c/general.jsonl")).toBeNull();
      expect(writer.holdsFiles("s")).toBe(true);
      expect(writer.countPresentFiles("s")).toBe(1);
    });
    for (const s of read) expect(planOf(journal, s), s.sql).toContain("INDEX messages_path");
    });
  });
});

describe("migration 24's reply and thread indexes", () => {
  it("holds only the replies that wait for a parent's thread, and the queries for them read it", () => {
    withJournal((journal) => {
    const insert = journal.prepare(
      `INSERT INTO messages (key, source, protocol, message_id, thread_id, in_reply_to, thread_key, sort_ms, agent, folder, path, last_path, status, updated_ms, seq)
       VALUES (?, 's', 'ignite', ?, ?, ?, ?, ?, 'a', 'queue', ?, ?, 'queued', 0, 0)`,
    );
    // A thousand replies with their own thread id (every KickLang envelope's correlation root), ten without.
    for (let i = 0; i < 1_010; i++) {
      const thread = i < 1_000 ? `root-${i % 50}` : null;
      insert.run(`m${i}`, `<${i}@x>`, thread, `<${i - 1}@x>`, thread === null ? null : `h\x1f${thread}`, T0 + i, `q/m${i}.mime`, `q/m${i}.mime`);
    }
    journal.exec("ANALYZE");
    expect(journal.prepare("SELECT count(*) FROM messages INDEXED BY messages_in_reply_to WHERE in_reply_to IS NOT NULL AND thread_id IS NULL").pluck().get()).toBe(10);
    expect(planOf(journal, { sql: REPLIES_TO_SQL, params: ["<1004@x>"] })).toContain("INDEX messages_in_reply_to (in_reply_to=?)");
    expect(planOf(journal, { sql: REPLIES_TO_ANY_SQL, params: ['["<1004@x>"]'] })).toContain("INDEX messages_in_reply_to (in_reply_to=?)");
    expect(planOf(journal, { sql: LONG_HEADER_THREAD_IDS_SQL, params: [1024] })).toContain("INDEX messages_thread_key (thread_key>? AND thread_key<?)");
    });
  });
});
