// Migration 26: a timeline filtered by status or priority tests each row in the timeline's own
// index (messages_sort), and reads a row from the table only once it matches.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { VOCABULARY } from "@/lib/protocols";
import { parseQuery } from "@/lib/query/parse";
import { openDb, type Db } from "./db";
import { compileFilter } from "./filter";
import { pageSql } from "./queries";
import { summaryRows } from "./rows";

const T0 = Date.parse("2026-11-20T00:00:00Z");

let dir: string;
let db: Db;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-sort-index-"));
  db = openDb(path.join(dir, "journal.sqlite"));
  const insert = db.prepare(
    `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, type, status, priority, updated_ms, seq)
     VALUES (?, 'ws-ignite', 'ignite', ?, 'leader', 'processed', ?, ?, 'task', ?, ?, 0, 0)`,
  );
  // As the bench's tree: most delivered, a few high-priority ones not yet.
  db.transaction(() => {
    for (let i = 0; i < 5_000; i++) {
      const file = `queue/leader/processed/m${i}.mime`;
      insert.run(`m${i}`, T0 + i * 1000, file, file, i % 97 === 0 ? "queued" : "delivered", i % 3 === 0 ? "high" : i % 5 === 0 ? null : "normal");
    }
  })();
  db.exec("ANALYZE");
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const filterOf = (q: string) => compileFilter(parseQuery(q, VOCABULARY), { fullText: false });
const keysOf = (rows: { key: string }[]) => rows.map((r) => r.key);

it("tests status and priority in the timeline's index, and answers as a read of every row would", () => {
  for (const q of ["-status:delivered priority:high", "status:queued", "priority:high", "-priority:normal status:delivered"]) {
    const f = filterOf(q);
    // Keys alone: the index answers the filter and the order without the table.
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT key FROM messages WHERE ${f.where} ORDER BY sort_ms DESC, key DESC LIMIT ?`).all(...f.params, 101) as { detail: string }[]).map((p) => p.detail);
    if (!q.startsWith("status:")) expect(plan, q).toEqual(["SCAN messages USING COVERING INDEX messages_sort"]);
    const page = summaryRows(db, pageSql(f.where), ...f.params, 101);
    const everyRow = summaryRows(db, pageSql(f.where).replace("FROM messages", "FROM messages NOT INDEXED"), ...f.params, 101);
    expect(keysOf(page), q).toEqual(keysOf(everyRow));
    expect(page.length, q).toBeGreaterThan(0);
  }
  expect(keysOf(summaryRows(db, pageSql(filterOf("-status:delivered priority:high").where), "delivered", "high", 3))).toEqual(["m4947", "m4656", "m4365"]);
});
