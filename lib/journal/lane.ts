import "server-only";
// A lane: a journal file of its own in which a worker thread fills some entry sources, merged into
// the journal when it is done. SQLite has one writer, and an entry fill builds its rows inside its
// write transactions: two fills on two threads into one journal took 8.6–9.3 s against one's 9.0 s
// (80,000 entries, scripts/bench-entry-fill.ts). Into files of their own they do not wait on each
// other, nor on IGNITE's load. A lane starts as a copy of what the journal holds of its sources (a
// start's first turn wrote their newest), so it settles exactly as a fill in place would; its merge
// replaces those rows with the lane's. Protocol-neutral: it moves rows, never reads an entry.
import fs from "node:fs";
import { openDb, type Db } from "./db";
import { insertCountedInBulk } from "./load-triggers";
import { refreshThreadKey } from "./thread-keys";

/** What a merge may take over from the journal: the events written since the lane's copy (an operator's action) are kept. */
export interface LaneSeed {
  sources: string[];
  /** The journal's last event id when the lane copied it. */
  eventsThrough: number;
}

/** The tables a lane copies and merges by their source column. */
const SOURCE_TABLES = ["entries", "entry_refs", "entry_files", "messages"] as const;

/**
 * The journal's indexes for its pages and sweeps, which a fill never looks anything up by: a lane
 * goes without them (its merge's inserts fill the journal's own). It keeps those of its lookups:
 * entries by place, id and message id, their refs, messages by key, Message-ID, the message they
 * reply to or hold (threads), events by key.
 */
const UNUSED_IN_A_LANE = [
  "messages_seq", "messages_with_problems", "messages_issue", "messages_agent_sort", "messages_stuck_sort", "messages_dead_letters", "messages_status_sort",
  "messages_processing_unstuck", "messages_prunable", "messages_due", "messages_type_sort", "messages_sort", "messages_files", "messages_path", "messages_thread_key",
  "events_failures",
];

/** A JSON array of the lane's sources, bound as one value. */
const IN_SOURCES = "(SELECT value FROM json_each(@sources))";

/** A table's columns, named: the journal may have been made at an older version and migrated, its columns in another order. */
const columnsOf = (db: Db, table: string, schema = "main") => db.prepare("SELECT name FROM pragma_table_info(?, ?)").pluck().all(table, schema) as string[];

/**
 * Create the lane's journal at `file` (none may be there) with what `journalFile` holds of
 * `sources`. The lane is thrown away if anything stops it, so it is written without a WAL or
 * syncing (its rollback journal in memory), and without the tables its merge fills again through
 * the journal's own triggers (counts, threads' last activity).
 */
export function openLane(file: string, journalFile: string, sources: readonly string[]): { db: Db; seed: LaneSeed } {
  if (fs.existsSync(file)) throw new Error(`a lane's journal is already at ${file}`);
  const db = openDb(file);
  try {
    prepareLane(db);
    return { db, seed: copyInto(db, journalFile, sources) };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** A lane's settings, and what it goes without (see openLane). */
function prepareLane(db: Db): void {
  db.pragma("journal_mode = MEMORY");
  db.pragma("synchronous = OFF");
  // Its pages are written once and looked up little: a worker connection's 4 MB, not the journal's 96 MB
  // (see LANE_LIMITS in lane-job.ts: smaller caches and commits took the start's peak memory down 100 MB).
  db.pragma("cache_size = -4096");
  for (const index of UNUSED_IN_A_LANE) db.exec(`DROP INDEX IF EXISTS ${index}`);
  const counting = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND (name GLOB '*_counts_*' OR name GLOB 'thread_last_*')").pluck().all() as string[];
  for (const name of counting) db.exec(`DROP TRIGGER ${name}`);
}

/** What the journal holds of `sources`, copied into the lane `db` in one snapshot; the seed its merge needs. */
function copyInto(db: Db, journalFile: string, sources: readonly string[]): LaneSeed {
  db.prepare("ATTACH ? AS journal").run(journalFile);
  try {
    return db.transaction(() => {
      const copy = (table: string, where: string, bound: Record<string, string> = {}) => {
        const columns = columnsOf(db, table).join(", ");
        db.prepare(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM journal.${table} ${where}`).run(bound);
      };
      for (const table of SOURCE_TABLES) copy(table, `WHERE source IN ${IN_SOURCES}`, { sources: JSON.stringify(sources) });
      copy("message_raw", "WHERE id IN (SELECT id FROM main.messages)");
      copy("events", "WHERE key IN (SELECT key FROM main.messages)");
      db.prepare(`UPDATE main.meta SET value = (SELECT value FROM journal.meta WHERE name = 'seq') WHERE name = 'seq'`).run();
      return { sources: [...sources], eventsThrough: (db.prepare("SELECT coalesce(max(id), 0) FROM journal.events").pluck().get() as number) };
    })();
  } finally {
    db.exec("DETACH journal");
  }
}

/**
 * Replace what `db` (the journal) holds of the lane's sources with what the lane at `laneFile`
 * holds, in one transaction: new ids (entry refs and bytes follow their rows by key), each message
 * a new seq in the lane's order (a poll sees every merged row as changed), and the journal's
 * triggers keeping its counts and threads. Events written to the journal since the lane copied it
 * stay. Returns the messages merged.
 */
export function mergeLane(db: Db, laneFile: string, seed: LaneSeed): number {
  db.prepare("ATTACH ? AS lane").run(laneFile);
  try {
    return db.transaction(() => {
      const bound = { sources: JSON.stringify(seed.sources) };
      // Marked stuck since the copy (the stuck sweep runs through a start): kept while still in that status, or the
      // next sweep would mark them again, with a second "stuck" step beside the first, which stays.
      const stuck = db.prepare(`SELECT key, status FROM messages WHERE stuck = 1 AND source IN ${IN_SOURCES}`).all(bound) as { key: string; status: string }[];
      db.prepare(`DELETE FROM events WHERE id <= @through AND key IN (SELECT key FROM messages WHERE source IN ${IN_SOURCES})`).run({ ...bound, through: seed.eventsThrough });
      for (const table of ["messages", "entry_refs", "entries", "entry_files"]) db.prepare(`DELETE FROM main.${table} WHERE source IN ${IN_SOURCES}`).run(bound);

      const entries = columnsOf(db, "entries").filter((c) => c !== "id").join(", ");
      db.exec(`INSERT INTO main.entries (${entries}) SELECT ${entries} FROM lane.entries ORDER BY id`);
      db.exec(`INSERT INTO main.entry_refs (entry, source, target)
        SELECT e.id, r.source, r.target FROM lane.entry_refs r JOIN lane.entries l ON l.id = r.entry JOIN main.entries e ON e.key = l.key`);
      const files = columnsOf(db, "entry_files").join(", ");
      db.exec(`INSERT INTO main.entry_files (${files}) SELECT ${files} FROM lane.entry_files`);

      const merged = db.prepare("SELECT count(*) FROM lane.messages").pluck().get() as number;
      const last = db.prepare("UPDATE meta SET value = value + ? WHERE name = 'seq' RETURNING value").pluck().get(merged) as number;
      const columns = columnsOf(db, "messages").filter((c) => c !== "seq" && c !== "id");
      insertCountedInBulk(db, "lane.messages", () =>
        db.prepare(`INSERT INTO main.messages (${columns.join(", ")}, seq)
          SELECT ${columns.join(", ")}, @first + row_number() OVER (ORDER BY seq, id) - 1 FROM lane.messages ORDER BY id`).run({ first: last - merged + 1 }));
      db.exec(`INSERT INTO main.message_raw (id, raw, head_only)
        SELECT m.id, r.raw, r.head_only FROM lane.message_raw r JOIN lane.messages l ON l.id = r.id JOIN main.messages m ON m.key = l.key`);
      const events = columnsOf(db, "events").filter((c) => c !== "id").join(", ");
      db.exec(`INSERT INTO main.events (${events}) SELECT ${events} FROM lane.events ORDER BY id`);
      const keepStuck = db.prepare("UPDATE messages SET stuck = 1 WHERE key = ? AND status = ? AND stuck = 0 AND path IS NOT NULL");
      for (const r of stuck) keepStuck.run(r.key, r.status);
      refreshThreads(db, seed.sources);
      return merged;
    })();
  } finally {
    db.exec("DETACH lane");
  }
}

/**
 * The lane threaded its messages by what it held; a thread may also come from, or reach, a message
 * of another source (a reply names any Message-ID). Brought level with the whole journal as the
 * writer keeps it: each merged message that takes its thread from a message outside the lane (the
 * ones whose parent is inside it the lane threaded right), then each message of another source that
 * takes its thread from a merged one (a reply or a dead letter journaled while the lane filled),
 * and what hangs from those. A refresh writes only what changes.
 */
function refreshThreads(db: Db, sources: readonly string[]): void {
  // Each driven through the lane's or the journal's indexes (one query each, UNION would sort by a
  // scan): scanning the journal's every row took 0.40 s of four merges' 2.6 s (scripts/bench-entry-fill.ts's lanes).
  const keys = (sql: string, bound: Record<string, string> = {}) => new Set(db.prepare(sql).pluck().all(bound) as string[]);
  const fromOutside = new Set([
    ...keys(`SELECT key FROM lane.messages m WHERE dead_letter_of IS NOT NULL AND thread_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM lane.messages p WHERE p.key = m.dead_letter_of)`),
    ...keys(`SELECT key FROM lane.messages m WHERE in_reply_to IS NOT NULL AND thread_id IS NULL AND dead_letter_of IS NULL
      AND NOT EXISTS (SELECT 1 FROM lane.messages p WHERE p.message_id = m.in_reply_to)`),
  ]);
  for (const key of fromOutside) refreshThreadKey(db, key);
  const bound = { sources: JSON.stringify(sources) };
  const hanging = new Set([
    ...keys(`SELECT o.key FROM lane.messages l CROSS JOIN main.messages o ON o.dead_letter_of = l.key
      WHERE o.dead_letter_of IS NOT NULL AND o.thread_id IS NULL AND o.source NOT IN ${IN_SOURCES}`, bound),
    ...keys(`SELECT o.key FROM lane.messages l CROSS JOIN main.messages o ON o.in_reply_to = l.message_id
      WHERE l.message_id IS NOT NULL AND o.in_reply_to IS NOT NULL AND o.thread_id IS NULL AND o.dead_letter_of IS NULL AND o.source NOT IN ${IN_SOURCES}`, bound),
  ]);
  for (const key of hanging) refreshThreadKey(db, key);
}

/** Remove a lane's journal (its merge done, or the lane given up). */
export function removeLane(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}
