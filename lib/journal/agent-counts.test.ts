// The overview's counts come from a table triggers keep (migration 9), and so do each thread's
// last activity (migration 11) and the charts' counts per hour (migration 22). Checked here against what a full scan of the messages table gives, on the IGNITE fixture, after each kind of write:
// the first scan, operations that move files between queues, a stuck sweep, a file deleted, a
// prune, and a journal migrated from before the table existed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Stats, Status } from "@/lib/model";
import { discardMessage, requeueMessage, retryMessage } from "@/lib/operations";
import { DL_ARCH, DL_TASK, QUEUED, STUCK, openHarness, type Harness } from "@/lib/operations/test-harness";
import { fileRecord } from "@/lib/testing/parsed";
import { migrate, type Db } from "./db";
import { LISTED_DEAD_LETTERS_SQL } from "./dead-letters";
import { queryStats } from "./stats";
import { getJournal } from "./store";
import { JournalWriter } from "./writer";

type Scanned = Omit<Stats["agents"][number], "lastActivityAt"> & { last_ms: number | null };

/** The sums straight from the messages table (the query the counts replaced); a letter archived under the dead-letter queue's name is no agent's. */
function scanned(db: Db): { totals: Stats["totals"]; agents: Scanned[] } {
  const totals: Stats["totals"] = { messages: 0 };
  const byStatus = db.prepare("SELECT status, folder = 'dead_letter' AS letter, COUNT(*) AS n FROM messages GROUP BY 1, 2").all() as { status: Status; letter: number; n: number }[];
  for (const r of byStatus) {
    const into = r.status === "dead" && r.letter === 1 ? "deadLetters" : r.status;
    totals[into] = (totals[into] ?? 0) + r.n;
    totals.messages += r.n;
  }
  const rows = db
    .prepare(
      `SELECT source, MIN(protocol) AS protocol, agent, SUM(status = 'queued') AS queued, SUM(status = 'processing') AS processing,
         SUM(status = 'delivered') AS delivered, SUM(status = 'retrying') AS retrying, SUM(status = 'dead') AS dead, SUM(stuck) AS stuck,
         SUM(status IN ('queued', 'retrying') AND path IS NOT NULL) AS waiting,
         MIN(CASE WHEN status IN ('queued', 'retrying') AND path IS NOT NULL THEN mtime_ms END) AS oldest,
         MIN(CASE WHEN status = 'retrying' THEN next_retry_at END) AS nextRetryAt, MAX(updated_ms) AS last_ms
       FROM messages WHERE folder != 'dead_letter' AND agent != 'dead_letter' GROUP BY source, agent`,
    )
    .all() as (Omit<Scanned, "oldestQueuedAt" | "counts"> & { oldest: number | null })[];
  const counts = db
    .prepare("SELECT source, agent, status, COUNT(*) AS n FROM messages WHERE folder != 'dead_letter' GROUP BY 1, 2, 3")
    .all() as { source: string; agent: string; status: string; n: number }[];
  const countsOf = (source: string, agent: string) =>
    Object.fromEntries(counts.filter((c) => c.source === source && c.agent === agent).map((c) => [c.status, c.n]));
  return {
    totals,
    agents: rows.map(({ oldest, ...r }) => ({ ...r, counts: countsOf(r.source, r.agent), oldestQueuedAt: oldest === null ? null : new Date(oldest).toISOString() })),
  };
}

/** Everything but last activity equals the scan; last activity is never older than the scan's. */
function expectCountsMatch(db: Db): void {
  const stats = queryStats(db);
  const scan = scanned(db);
  expect(stats.totals).toEqual(scan.totals);
  // The overview's three dead counts agree: the dead total is the agents' Dead column summed, and
  // the dead letters are the ones /dead-letters lists (on disk in dead_letter/, dead).
  expect(stats.totals.dead ?? 0).toBe(stats.agents.reduce((n, a) => n + a.dead, 0));
  const letters = db.prepare(LISTED_DEAD_LETTERS_SQL.replace("ORDER BY", "AND d.status = 'dead' ORDER BY")).all(1e9).length;
  expect(stats.totals.deadLetters ?? 0).toBe(letters);
  const withMessages = stats.agents.filter((a) => scan.agents.some((s) => s.agent === a.agent && s.source === a.source));
  expect(withMessages.map(({ lastActivityAt: _, ...a }) => a)).toEqual(
    expect.arrayContaining(scan.agents.map(({ last_ms: _, ...a }) => a)),
  );
  expect(withMessages).toHaveLength(scan.agents.length);
  for (const s of scan.agents) {
    const a = withMessages.find((x) => x.agent === s.agent && x.source === s.source);
    expect(Date.parse(a?.lastActivityAt ?? "")).toBeGreaterThanOrEqual(s.last_ms ?? 0);
  }
  // Agents without messages (their folder exists) are listed with zeros.
  for (const a of stats.agents.filter((x) => !withMessages.includes(x))) expect(a).toMatchObject({ queued: 0, processing: 0, delivered: 0, dead: 0, stuck: 0 });
  // Each thread's last activity (migration 11), for the thread list.
  expect(db.prepare("SELECT thread_key, last_ms FROM thread_last ORDER BY 1").all()).toEqual(
    db.prepare("SELECT thread_key, max(sort_ms) AS last_ms FROM messages WHERE thread_key IS NOT NULL GROUP BY 1 ORDER BY 1").all(),
  );
  // The charts' counts per hour (migration 22): a count that fell to zero may stay as a row.
  for (const [table, column] of [["hour_agent_counts", "agent"], ["hour_type_counts", "coalesce(type, '(no type)')"]]) {
    expect(db.prepare(`SELECT * FROM ${table} WHERE n != 0 ORDER BY 1, 2`).raw().all()).toEqual(
      db.prepare(`SELECT sort_ms / 3600000, ${column}, COUNT(*) FROM messages WHERE folder != 'dead_letter' GROUP BY 1, 2 ORDER BY 1, 2`).raw().all(),
    );
  }
}

describe("agent counts kept by triggers", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.close());
  const actor = "http://127.0.0.1:3000";

  it("equal a full scan after the first scan, operations, a stuck sweep, a deleted file and a prune", async () => {
    const { db } = getJournal();
    expectCountsMatch(db);
    await requeueMessage(h.keyAt(DL_ARCH), { actor });
    await requeueMessage(h.keyAt(DL_TASK), { to: "ignitian_1", actor });
    await retryMessage(h.keyAt(STUCK), { path: STUCK, actor });
    await discardMessage(h.keyAt(QUEUED), { path: QUEUED, actor });
    await h.service.scanNow();
    expectCountsMatch(db);

    // A clock the test moves: the prune below must come strictly after the delete it prunes.
    let now = Date.now() + 10 * 86_400_000;
    const writer = new JournalWriter(db, () => now);
    writer.refreshStuck(1000);
    expectCountsMatch(db);
    const processed = h.q("folder:processed status:delivered")[0];
    if (!processed?.path) throw new Error("the fixture has delivered messages");
    fs.rmSync(h.abs(processed.path));
    writer.markGone(processed.source, processed.path);
    expectCountsMatch(db);
    now += 1000;
    expect(writer.prune(1, 0)).toBeGreaterThan(0);
    expectCountsMatch(db);
  });
});

describe("migrations 9 and 11", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-counts-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("count the messages a journal already holds, and their threads' last activity", () => {
    const db = new Database(path.join(dir, "journal.sqlite"));
    try {
      migrate(db, 8);
      // Today's writer keeps a file's bytes apart (migrations 15 and 17), a status event's old
      // status (18) and finds a file by its place (19); at version 8 none of them was there.
      db.exec("CREATE TABLE message_raw (id INTEGER PRIMARY KEY, raw BLOB NOT NULL, head_only INTEGER NOT NULL DEFAULT 0)");
      db.exec("ALTER TABLE events ADD COLUMN from_status TEXT");
      db.exec("ALTER TABLE messages ADD COLUMN locator TEXT NOT NULL DEFAULT ''");
      const writer = new JournalWriter(db, () => 5_000);
      writer.upsertSource({ id: "ws-ignite", protocol: "ignite", root: dir, error: null });
      writer.record(fileRecord("queue/leader/a.mime", { messageId: "<a@x>", threadId: "thr_1" }));
      writer.record(fileRecord("queue/leader/processed/b.mime", { messageId: "<b@x>", status: "delivered" }, { mtimeMs: 2, size: 2, ino: 2 }));
      writer.record(fileRecord("queue/dead_letter/c.mime", { messageId: "<c@x>", status: "dead" }, { mtimeMs: 3, size: 3, ino: 3 }));
      db.exec("DROP TABLE message_raw");
      db.exec("ALTER TABLE events DROP COLUMN from_status");
      db.exec("ALTER TABLE messages DROP COLUMN locator");
      migrate(db);
      expectCountsMatch(db);
      expect(queryStats(db).agents.find((a) => a.agent === "leader")).toMatchObject({ queued: 1, delivered: 1, lastActivityAt: new Date(1_000).toISOString() });
      expect(db.prepare("SELECT count(*) FROM thread_last").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
