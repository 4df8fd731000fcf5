import "server-only";
// The message rows the entry journal writes for a batch's settled entries, gathered first and then
// written together: the new rows in one INSERT, so the full-text index takes them in one go.
// FTS5 writes its pending terms out as a segment at every statement savepoint (fts5SavepointMethod),
// and every write statement after a row's INSERT opens one: written one row at a time, each row
// became a segment of its own, and merging those segments was 45 % of the CPU of a stream of
// appends (perf, 20 MB channel); a batch of 50 rows in one statement cost 0.17–0.20 ms of CPU a
// row instead of 0.63–0.66 ms.
import type { Statement } from "better-sqlite3";
import type { Entry } from "@/lib/protocols/entries";
import { journalWord, sizeOf, type EntryFileFacts, type EntrySourceContext } from "./entry-rows";
import type { StoredEntry } from "./entry-store";
import { previewOf } from "./message-row";
import { taskIdOf } from "./task-id";
import { refreshThreadKey, threadKeysSetAtInsert } from "./thread-keys";
import { ownGroupOf } from "./thread-sql";
import type { Db } from "./db";

/** What the batch knows of an entry beyond itself: how it left its file, its bytes, its file's facts. */
export interface RowContext {
  changed: ReadonlySet<number>;
  raw: ReadonlyMap<number, Buffer>;
  facts: ReadonlyMap<string, EntryFileFacts>;
  left: ReadonlyMap<number, { kind: "trimmed" | "gone" | "moved"; detail: string; data: Record<string, string | null> }>;
  /** A first fill (EntryWriter.apply): thousands of new rows a batch. */
  firstFill: boolean;
}

export interface Before {
  status: string;
  path: string | null;
  /** Where it was last seen: kept while it is gone (a gone row rewritten, its status settled anew, still says where it was). */
  lastPath: string;
  problems: string;
  threadId: string | null;
  dueMs: number | null;
  heldKey: string | null;
}

/** One row to write: the columns, and what the row was before (none: a new row). */
export interface RowWrite {
  s: StoredEntry;
  status: string;
  locator: string;
  row: Record<string, string | number | null>;
  before: Before | undefined;
  nowMs: number;
}

const INSERTED = [
  "key", "source", "protocol", "message_id", "from_name", "to_list", "type", "priority", "thread_id", "in_reply_to", "correlation_id", "date", "sort_ms",
  "agent", "folder", "path", "last_path", "status", "raw_status", "retry_count", "problems", "preview", "body", "locator", "due_ms", "dead_letter_of",
  "task_id", "size", "mtime_ms", "ino", "updated_ms", "seq", "thread_key",
] as const;

/**
 * Every new row of a batch in one statement (see the top of this file), from a temp table its rows
 * are bound into one at a time (no full-text index there, so no segment a row). They went in as one
 * JSON array read back with `->>`: making and reading that JSON was 9 % of the CPU of a stream of
 * appends (perf). The staging table's columns have no type, so each value reaches `messages` as bound.
 */
const STAGE_SQL = `CREATE TEMP TABLE IF NOT EXISTS messages_staged (${INSERTED.join(", ")})`;
const STAGE_ROW_SQL = `INSERT INTO temp.messages_staged VALUES (${INSERTED.map(() => "?").join(", ")})`;
const INSERT_STAGED_SQL = `INSERT INTO messages (${INSERTED.join(", ")}) SELECT ${INSERTED.join(", ")} FROM temp.messages_staged ORDER BY rowid`;

/**
 * A first fill's rows go in as bound values instead (see insertBound), where the full-text trigger
 * is in VALUES_ROWS a statement (33 columns each, under SQLite's 32,766 host parameters): `->>`
 * parses a row's JSON again for each of its columns, and with bodies of a few KB that was most of
 * the insert (20,000 entries of a protocol: 1.5–2.1 s of CPU, 0.7–0.85 s bound). The rest of a batch
 * goes in statements of halving sizes, so few SQL texts are prepared.
 */
const VALUES_ROWS = 512;
const valuesSql = (table: string, columns: readonly string[], rows: number) =>
  `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => "?").join(", ")})`).join(", ")}`;

const EVENT_COLUMNS = ["key", "at_ms", "kind", "detail", "from_status", "data"] as const;
/** A step of a message's history, as its events row's values (EVENT_COLUMNS). */
type EventValues = [string, number, string, string, string | null, string];

/** A row's bytes: its key, the bytes, whether they are only the file's head. */
type RawValues = [string, Buffer, 0 | 1];
/**
 * A batch's bytes in one statement or a few, each row's id found by its key there: one statement a
 * row was 80,000 statements in four lanes' fills (0.68 s of CPU). `WHERE true`: SQLite's upsert
 * after a join needs it to tell its ON CONFLICT from the join's ON.
 */
const RAW_BYTES_A_STATEMENT = 1024 * 1024;
const rawSql = (rows: number) => `INSERT INTO message_raw (id, raw, head_only)
  SELECT m.id, v.column2, v.column3 FROM (VALUES ${Array.from({ length: rows }, () => "(?, ?, ?)").join(", ")}) AS v JOIN messages m ON m.key = v.column1 WHERE true
  ON CONFLICT (id) DO UPDATE SET raw = excluded.raw, head_only = excluded.head_only`;

/** An existing row; its body only when that changed, as setting it (even to itself) indexes it again. */
const updateSql = (withBody: boolean) => `UPDATE messages SET message_id = @message_id, from_name = @from_name, to_list = @to_list, type = @type, priority = @priority,
    thread_id = @thread_id, in_reply_to = @in_reply_to, correlation_id = @correlation_id, date = @date, agent = @agent, folder = @folder,
    path = @path, last_path = @last_path, status = @status, raw_status = @raw_status, retry_count = @retry_count, problems = @problems,
    ${withBody ? "preview = @preview, body = @body," : ""} locator = @locator, due_ms = @due_ms, dead_letter_of = @dead_letter_of, task_id = @task_id,
    updated_ms = @updated_ms, seq = @seq,
    stuck = CASE WHEN @due_ms IS NULL OR @path IS NULL OR @due_ms > @now_ms THEN 0 ELSE stuck END
  WHERE key = @key`;

export class EntryMessages {
  constructor(
    private readonly db: Db,
    private readonly sql: (text: string) => Statement,
    private readonly now: () => number,
  ) {}

  /**
   * The rows as they are now, by key, of entries about to be planned: one statement for a batch's
   * whole neighbourhood (one lookup per entry was 15,000 statements per 3,000 appends).
   */
  before(keys: readonly string[]): Map<string, Before> {
    const rows = this.sql(
      `SELECT key, status, path, last_path AS lastPath, problems, thread_id AS threadId, due_ms AS dueMs, dead_letter_of AS heldKey FROM messages WHERE key IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(keys)) as (Before & { key: string })[];
    return new Map(rows.map(({ key, ...row }) => [key, row]));
  }

  /** The row `settled` makes of entry `s`, for write(); null when the row already says it all. `before`: the row now (see before()). */
  plan(ctx: EntrySourceContext, s: StoredEntry, settled: Entry, batch: RowContext, before: Before | undefined): RowWrite | null {
    const e = { ...settled, status: journalWord(settled.status, "unknown"), folder: journalWord(settled.folder, "files") };
    const facts = s.path ? batch.facts.get(s.path) : undefined;
    const problems = JSON.stringify(e.problems.map((p) => p.message));
    const dueMs = e.dueAt ? Date.parse(e.dueAt) : null;
    const nowMs = this.now();
    const heldKey = this.heldKey(ctx.source, s.key, e);
    if (before && !batch.changed.has(s.id) && before.status === e.status && before.problems === problems && before.threadId === e.threadKey && before.dueMs === dueMs && before.heldKey === heldKey) return null;
    const atMs = Math.trunc(Math.min(facts?.mtimeMs ?? nowMs, nowMs));
    const sortMs = e.date ? Date.parse(e.date) : atMs;
    const row = {
      key: s.key, source: ctx.source, protocol: ctx.protocol, message_id: e.messageId, from_name: e.from, to_list: JSON.stringify(e.to),
      type: e.type, priority: e.priority, thread_id: e.threadKey, in_reply_to: e.inReplyTo, correlation_id: e.correlationId, date: e.date,
      agent: e.agent, folder: e.folder, path: s.path, last_path: s.path ?? before?.path ?? before?.lastPath ?? "", status: e.status, raw_status: e.rawStatus,
      retry_count: e.retryCount, problems, preview: previewOf(e.summary ?? e.body), body: e.body, locator: e.locator, due_ms: dueMs,
      dead_letter_of: heldKey, task_id: taskIdOf(e.body), updated_ms: atMs, seq: 0,
      // A new row with its own thread id has its thread at once (see history); any other is threaded after it is written.
      thread_key: ownGroupOf({ thread_id: e.threadKey, repository: null, issue: null, task_id: null }),
      sort_ms: Number.isFinite(sortMs) ? sortMs : atMs, size: sizeOf(e, batch.raw.get(s.id)?.length), mtime_ms: facts ? Math.trunc(facts.mtimeMs) : null, ino: facts?.ino ?? null,
    };
    return { s, status: e.status, locator: e.locator, row, before, nowMs };
  }

  /**
   * Write the planned rows: updates first (one may free the place a new row takes), then the new
   * rows (see insertBound), each one's thread where it has none of its own, then their history and
   * bytes, then the batch's new threads. Seqs in the order planned.
   */
  write(writes: readonly RowWrite[], batch: RowContext): void {
    if (writes.length === 0) return;
    const last = this.sql("UPDATE meta SET value = value + ? WHERE name = 'seq' RETURNING value").pluck().get(writes.length) as number;
    writes.forEach((w, i) => (w.row.seq = last - writes.length + 1 + i));
    for (const w of writes) {
      if (!w.before) continue;
      const sameBody = this.sql("SELECT body IS ? AND preview IS ? FROM messages WHERE key = ?").pluck().get(w.row.body, w.row.preview, w.row.key) === 1;
      // A row due again later (a new stint of work) is not overdue until then.
      this.sql(updateSql(!sameBody)).run({ ...w.row, now_ms: w.nowMs });
    }
    const fresh = writes.filter((w) => !w.before);
    const aRowAtATime = !this.fullTextIndexesRows();
    const rows = fresh.map((w) => INSERTED.map((c) => w.row[c] ?? null));
    if (batch.firstFill) this.insertBound("messages", INSERTED, rows, aRowAtATime);
    else if (rows.length > 0) this.insertStaged(rows);
    // The batch's steps after its rows, in the order written (a first fill: a "seen" step a row).
    const steps: EventValues[] = [];
    const raws: RawValues[] = [];
    for (const w of writes) this.history(w, batch, steps, raws);
    // A row at a time: no full-text trigger fires on events, so no segment is made of each statement.
    this.insertBound("events", EVENT_COLUMNS, steps, true);
    this.insertRaws(raws);
    threadKeysSetAtInsert(this.db, fresh.flatMap((w) => (w.row.thread_key === null ? [] : [{ key: w.s.key, messageId: w.row.message_id as string | null }])));
  }

  /**
   * New rows of `table`, in order, as bound values: `aRowAtATime`, each by one statement prepared
   * once; else VALUES_ROWS a statement. A row at a time is cheaper where no full-text trigger makes
   * a segment of each statement (see the top of this file): 20,000 message rows in a lane took
   * 0.31-0.35 s of CPU so, 0.52-0.65 s bound 512 to a statement; 25,000 events 0.15-0.36 s against 0.18-0.46 s.
   */
  private insertBound(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[], aRowAtATime: boolean): void {
    if (!aRowAtATime) return this.runInChunks(rows, (n) => valuesSql(table, columns, n));
    const insert = this.sql(valuesSql(table, columns, 1));
    for (const row of rows) insert.run(row);
  }

  /** New message rows in one INSERT, bound a row at a time into the staging table first (see INSERT_STAGED_SQL). */
  private insertStaged(rows: readonly (readonly unknown[])[]): void {
    this.db.exec(STAGE_SQL);
    const stage = this.sql(STAGE_ROW_SQL);
    for (const row of rows) stage.run(row);
    this.sql(INSERT_STAGED_SQL).run();
    this.sql("DELETE FROM temp.messages_staged").run();
  }

  /** Whether the journal's full-text index takes each new row as it is written (its trigger is in: see fulltext.ts). */
  private fullTextIndexesRows(): boolean {
    return this.sql("SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = 'messages_fts_insert'").get() !== undefined;
  }

  /**
   * Rows' bytes, each to its message's id (found by key), as bound values (see rawSql), at most
   * RAW_BYTES_A_STATEMENT a statement but for one bigger file's: binding copies each one, so a
   * statement holds its bytes twice meanwhile.
   */
  private insertRaws(raws: readonly RawValues[]): void {
    let group: RawValues[] = [];
    let bytes = 0;
    for (const row of raws) {
      if (group.length > 0 && bytes + row[1].length > RAW_BYTES_A_STATEMENT) {
        this.runInChunks(group, rawSql);
        [group, bytes] = [[], 0];
      }
      group.push(row);
      bytes += row[1].length;
    }
    this.runInChunks(group, rawSql);
  }

  /** `rows` bound into statements of VALUES_ROWS rows, then of halving sizes: few SQL texts are prepared. */
  private runInChunks(rows: readonly (readonly unknown[])[], sqlOf: (rows: number) => string): void {
    for (let at = 0; at < rows.length; ) {
      let n = VALUES_ROWS;
      while (n > rows.length - at) n /= 2;
      this.sql(sqlOf(n)).run(rows.slice(at, at + n).flat());
      at += n;
    }
  }

  /** A written row's steps go to `steps` and its bytes to `raws` (written after the batch's rows); its thread is written here. */
  private history({ s, status, locator, row, before, nowMs }: RowWrite, batch: RowContext, steps: EventValues[], raws: RawValues[]): void {
    const atMs = row.updated_ms as number;
    const step = (at: number, kind: string, detail: string, fromStatus: string | null, data: Record<string, unknown>) => steps.push([s.key, at, kind, detail, fromStatus, JSON.stringify(data)]);
    if (!before) {
      step(atMs, "seen", `first seen in ${s.path ?? row.last_path}${locator ? ` (${locator})` : ""}, ${status}`, null, { path: s.path, locator, status });
    } else {
      const left = batch.left.get(s.id);
      if (left) step(nowMs, left.kind, left.detail, null, left.data);
      if (before.status !== status) step(left ? nowMs : atMs, "status", `${before.status} → ${status}`, before.status, { from: before.status, to: status });
    }
    const raw = batch.raw.get(s.id);
    if (raw) raws.push([s.key, raw, (row.size as number) > raw.length ? 1 : 0]);
    // A new row with its thread already is done with the batch's others (see write).
    if (before || row.thread_key === null) refreshThreadKey(this.db, s.key);
  }

  /** For an entry that holds another (a dead letter and its original): the held one's key, once it is journaled. */
  private heldKey(source: string, key: string, e: Entry): string | null {
    const held = e.links.find((l) => l.kind === "holds");
    if (!held) return null;
    const found = this.sql("SELECT key FROM entries WHERE source = ? AND message_id = ? AND key != ? ORDER BY path IS NULL, id LIMIT 1").pluck().get(source, held.targetId, key);
    return typeof found === "string" ? found : null;
  }

  event(key: string, atMs: number, kind: string, detail: string, fromStatus: string | null, data: Record<string, unknown>): void {
    this.sql("INSERT INTO events (key, at_ms, kind, detail, from_status, data) VALUES (?, ?, ?, ?, ?, ?)").run(key, atMs, kind, detail, fromStatus, JSON.stringify(data));
  }

  /** An ack is a step in its message's life, at the ack's own time: who acknowledged it, and how far (`only`: for these message ids). */
  ackEvents(source: string, ack: Entry, only?: ReadonlySet<string>): void {
    const atMs = ack.date ? Date.parse(ack.date) : this.now();
    for (const link of ack.links) {
      if (link.kind !== "acks" || (only && !only.has(link.targetId))) continue;
      const target = this.sql("SELECT e.key FROM entries e JOIN messages m ON m.key = e.key WHERE e.source = ? AND e.message_id = ? LIMIT 1").pluck().get(source, link.targetId);
      if (typeof target !== "string") continue;
      const by = ack.from ?? "someone";
      const at = Number.isFinite(atMs) ? atMs : this.now();
      // A message id seen again (a second copy): the step is there once.
      if (only && this.sql("SELECT 1 FROM events WHERE key = ? AND kind = 'acked' AND at_ms = ? AND detail = ?").get(target, at, `${ack.status} by ${by}`)) continue;
      this.event(target, at, "acked", `${ack.status} by ${by}`, null, { by, status: ack.status, ack: ack.messageId });
    }
  }
}
