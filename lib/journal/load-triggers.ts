import "server-only";
import type { Statement } from "better-sqlite3";
import { DEAD_LETTER_FOLDER } from "@/lib/model";
import type { Db } from "./db";
import { FILL_AGENT_COUNTS_SQL, FILL_HOUR_COUNTS_SQL, FILL_THREAD_LAST_SQL, HOUR_MS, NO_TYPE } from "./schema-sql";

/**
 * The insert triggers that keep the overview's counts (agent_counts, migration 9), each
 * thread's last activity (thread_last, migration 11) and the charts' counts per hour (migration
 * 22). Each costs a few µs a row, spent holding the one write turn, so a first load sets them
 * aside with its deferred indexes and does their work per chunk, in the chunk's own transaction:
 * what they keep is as current as the rows at every commit, and a load that dies part-way leaves
 * it consistent (the next open restores the triggers).
 */
export const LOAD_SETS_ASIDE = ["agent_counts_insert", "thread_last_insert", "hour_counts_insert"] as const;

/**
 * Fill the trigger-kept tables again from the messages, as their migrations did. For a journal
 * whose load's triggers were set aside when it stopped: rows may have been inserted meanwhile
 * with nobody doing the triggers' work (a load's end that failed, then live ingest). The counts'
 * last activity then only knows the messages still journaled.
 */
export function rebuildTriggerTables(db: Db): void {
  db.exec(`DELETE FROM agent_counts; ${FILL_AGENT_COUNTS_SQL} DELETE FROM thread_last; ${FILL_THREAD_LAST_SQL}
    DELETE FROM hour_agent_counts; DELETE FROM hour_type_counts; ${FILL_HOUR_COUNTS_SQL}`);
}

/** What one inserted row adds to the trigger-kept tables. */
export interface InsertedRow {
  source: string;
  agent: string;
  deadLetter: boolean;
  status: string;
  /** updated_ms */
  atMs: number;
  threadKey: string | null;
  sortMs: number;
  type: string | null;
}

/** Adds 1 to (hour, name)'s count in `counts`. */
function countIn(counts: Map<number, Map<string, number>>, hour: number, name: string): void {
  const names = counts.get(hour) ?? new Map<string, number>();
  counts.set(hour, names.set(name, (names.get(name) ?? 0) + 1));
}

/** Does the set-aside triggers' work for a chunk of inserted rows, on one connection. */
export class LoadTriggerWork {
  private readonly present: Statement;
  private readonly addCounts: Statement;
  private readonly addThreadLast: Statement;
  private readonly addHourAgent: Statement;
  private readonly addHourType: Statement;

  constructor(db: Db) {
    this.present = db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (${LOAD_SETS_ASIDE.map(() => "?").join(", ")})`).pluck();
    // Inserted rows are never stuck, so only n and last_ms grow (as the trigger would have them).
    this.addCounts = db.prepare(`INSERT INTO agent_counts (source, agent, dead_letter, status, n, stuck, last_ms) VALUES (?, ?, ?, ?, ?, 0, ?)
      ON CONFLICT DO UPDATE SET n = n + excluded.n, last_ms = max(coalesce(last_ms, 0), excluded.last_ms)`);
    this.addThreadLast = db.prepare("INSERT INTO thread_last VALUES (?, ?) ON CONFLICT DO UPDATE SET last_ms = max(last_ms, excluded.last_ms)");
    this.addHourAgent = db.prepare("INSERT INTO hour_agent_counts VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n");
    this.addHourType = db.prepare("INSERT INTO hour_type_counts VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n");
  }

  /** Call in the rows' transaction. Does nothing while the triggers are in place (never twice); they go and come back together. */
  apply(rows: readonly InsertedRow[]): void {
    const present = this.present.get(...LOAD_SETS_ASIDE) as number;
    if (present === LOAD_SETS_ASIDE.length) return;
    if (present > 0) throw new Error("the load's insert triggers are half set aside; the journal's next open restores them");
    const counts = new Map<string, { group: [string, string, number, string]; n: number; lastMs: number }>();
    const threads = new Map<string, number>();
    const [hourAgents, hourTypes] = [new Map<number, Map<string, number>>(), new Map<number, Map<string, number>>()];
    for (const r of rows) {
      const group: [string, string, number, string] = [r.source, r.agent, r.deadLetter ? 1 : 0, r.status];
      const name = group.join("\0");
      const g = counts.get(name);
      if (g) {
        g.n++;
        g.lastMs = Math.max(g.lastMs, r.atMs);
      } else counts.set(name, { group, n: 1, lastMs: r.atMs });
      if (r.threadKey !== null) threads.set(r.threadKey, Math.max(threads.get(r.threadKey) ?? r.sortMs, r.sortMs));
      if (r.deadLetter) continue;
      const hour = Math.trunc(r.sortMs / HOUR_MS); // as SQLite divides integers: toward zero
      countIn(hourAgents, hour, r.agent);
      countIn(hourTypes, hour, r.type ?? NO_TYPE);
    }
    for (const { group, n, lastMs } of counts.values()) this.addCounts.run(...group, n, lastMs);
    for (const [threadKey, lastMs] of threads) this.addThreadLast.run(threadKey, lastMs);
    for (const [into, counts] of [[this.addHourAgent, hourAgents], [this.addHourType, hourTypes]] as const) {
      for (const [hour, names] of counts) for (const [name, n] of names) into.run(hour, name, n);
    }
  }
}

/**
 * Run `insert` (rows copied from `from`, a table of the same columns as messages, into messages)
 * with the set-aside triggers out, doing their work for those rows grouped, one statement each.
 * For a lane's merge: four merges of 20,000 messages took 3.7 s of CPU with the triggers' four
 * upserts a row, 3.3 s grouped (reading the rows again costs most of what the triggers did).
 * Call it in the insert's transaction: the triggers go and come back in it, so no other
 * connection sees them gone. A trigger already set aside (a load's) is left to whoever set it
 * aside, as the insert alone would have left it.
 */
export function insertCountedInBulk(db: Db, from: string, insert: () => void): void {
  const triggers = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${LOAD_SETS_ASIDE.map(() => "?").join(", ")})`)
    .all(...LOAD_SETS_ASIDE) as { name: (typeof LOAD_SETS_ASIDE)[number]; sql: string }[];
  for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`);
  insert();
  // Each as its trigger adds one row (schema-base.ts, schema.ts); WHERE true: an upsert's SELECT needs a WHERE.
  const work: Record<(typeof LOAD_SETS_ASIDE)[number], string> = {
    agent_counts_insert: `INSERT INTO agent_counts (source, agent, dead_letter, status, n, stuck, last_ms)
      SELECT source, agent, folder = '${DEAD_LETTER_FOLDER}', status, count(*), sum(stuck), max(updated_ms) FROM ${from} WHERE true GROUP BY 1, 2, 3, 4
      ON CONFLICT DO UPDATE SET n = n + excluded.n, stuck = stuck + excluded.stuck, last_ms = max(coalesce(last_ms, 0), excluded.last_ms)`,
    thread_last_insert: `INSERT INTO thread_last SELECT thread_key, max(sort_ms) FROM ${from} WHERE thread_key IS NOT NULL GROUP BY thread_key
      ON CONFLICT DO UPDATE SET last_ms = max(last_ms, excluded.last_ms)`,
    hour_counts_insert: `INSERT INTO hour_agent_counts SELECT sort_ms / ${HOUR_MS}, agent, count(*) FROM ${from} WHERE folder != '${DEAD_LETTER_FOLDER}' GROUP BY 1, 2
        ON CONFLICT DO UPDATE SET n = n + excluded.n;
      INSERT INTO hour_type_counts SELECT sort_ms / ${HOUR_MS}, coalesce(type, '${NO_TYPE}'), count(*) FROM ${from} WHERE folder != '${DEAD_LETTER_FOLDER}' GROUP BY 1, 2
        ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  };
  for (const { name, sql } of triggers) {
    db.exec(work[name]);
    db.exec(sql);
  }
}
