import "server-only";
import type { Statement } from "better-sqlite3";
import { DEAD_LETTER_FOLDER } from "@/lib/model";
import type { Db } from "./db";
import { deferIndexes, restoreIndexes } from "./deferred-indexes";
import { makeKey } from "./keys";
import { LoadSettler, waitsForParent } from "./load-settle";
import { LOAD_SETS_ASIDE, LoadTriggerWork } from "./load-triggers";
import { firstSeenDetail, messageRow } from "./message-row";
import { ownGroupOf } from "./thread-sql";
import { refreshThreadKey } from "./thread-keys";
import type { FileRecord, JournalWriter } from "./writer";

/** Where a bulk load writes: worker threads open their own connection to the same file. */
export interface BulkTarget {
  file: string;
  /** Records are timed no later than this (the writer's clock when the chunk was handed out). */
  nowMs: number;
}

/** A new message's row, built before its insert takes the journal's one write turn. */
export interface BulkRow {
  rec: FileRecord;
  atMs: number;
  values: unknown[];
}

/**
 * Partial indexes that hold few of a load's rows (they are inserted not stuck and with a file,
 * only processing ones are stuck candidates, and dead letters are journaled after it; only a
 * dead_letter/ file too broken to be one is loaded): kept, as they cost next to nothing to
 * maintain, where rebuilding each would scan the whole table again. A kept index is maintained
 * whatever else writes meanwhile (a stuck sweep between chunks), so keeping one is always safe;
 * and the stuck sweep and retention name theirs (writer.ts), so those must always be there.
 */
const LOAD_KEEPS = [
  "messages_stuck_sort", "messages_processing_unstuck", "messages_prunable", "messages_dead_letter_of", "messages_dead_letters",
  // The timeline's newest page while the load goes on (it loads newest first, lib/ingest/newest-first.ts):
  // without it each poll sorted the loaded rows (at 100,000 a page took 28 ms p50, 136 ms max; 2.7 ms
  // with it), and rows arriving newest first go in at one end of it: the load's CPU did not change
  // beyond the noise of a shared machine (17-18 s with it, 16-17 s without).
  "messages_sort",
  // Each chunk settles what it decides about the messages loaded before it (load-settle.ts): the
  // replies to its messages, their parents and their duplicates are found through these. At 100,000
  // messages the chunks' CPU went from 3.3 s to 3.7 s (medians of 12 on a busy machine, both indexes
  // and the settling), the end's from 1.8 s to 1.6 s (two indexes fewer to build), and the file grew
  // 3.5%; with no Thread-ID on any message (95,000 replies to settle), from 3.7 s to 5.3 s, the
  // end's from 2.4 s to 2.2 s. A map of Message-IDs in memory instead would take 345 MB at
  // 1,000,000 messages, and could not settle in a worker's own transaction.
  "messages_message_id", "messages_in_reply_to",
];

const COLUMNS = Object.keys(messageRow(probeRecord(), "", 0, 0));
const KEY_COLUMN = COLUMNS.indexOf("key");
/** Keys are a name plus 8 hex digits of hash: a second collision is already a one-in-billions event. */
const MAX_KEY_ATTEMPTS = 100;
const SEQ_COLUMN = COLUMNS.indexOf("seq");
const SORT_COLUMN = COLUMNS.indexOf("sort_ms");
/** thread_key follows the row's columns (see valuesOf). */
const THREAD_KEY_COLUMN = COLUMNS.length;

const GROUP_COLUMNS = { thread_id: COLUMNS.indexOf("thread_id"), repository: COLUMNS.indexOf("repository"), issue: COLUMNS.indexOf("issue"), task_id: COLUMNS.indexOf("task_id") };
const ownGroupOfValues = (values: unknown[]) =>
  ownGroupOf({
    thread_id: values[GROUP_COLUMNS.thread_id] as string | null, repository: values[GROUP_COLUMNS.repository] as string | null,
    issue: values[GROUP_COLUMNS.issue] as string | null, task_id: values[GROUP_COLUMNS.task_id] as string | null,
  });
const waitsOf = (rec: FileRecord) => waitsForParent({ thread_id: rec.parsed.threadId, in_reply_to: rec.parsed.inReplyTo });

function valuesOf(rec: FileRecord, atMs: number, attempt: number): unknown[] {
  const row = messageRow(rec, makeKey(rec.source, rec.originPath, rec.parsed.messageId, attempt), atMs, 0);
  // A reply without a Thread-ID is in no thread until its parent is loaded (load-settle.ts).
  return [...Object.values(row), waitsForParent(row) ? null : ownGroupOf(row)];
}

/**
 * Inserts the rows of new messages during a bulk load, through one connection: the main thread's,
 * or an ingest worker's (lib/ingest/worker.ts), so a worker's rows never cross threads. A
 * message's thread_key is its own group here, but a reply without a Thread-ID's: it takes its
 * parent's thread in the transaction that has them both (LoadSettler), else in BulkLoad.finish().
 */
export class BulkInserter {
  private readonly insert: Statement;
  private readonly insertRaw: Statement;
  private readonly seen: Statement;
  private readonly takeSeq: Statement;
  private readonly countDone: Statement;
  private readonly triggerWork: LoadTriggerWork;
  private readonly settler: LoadSettler;

  constructor(db: Db) {
    this.insert = db.prepare(`INSERT INTO messages (${COLUMNS.join(", ")}, thread_key) VALUES (${COLUMNS.map(() => "?").join(", ")}, ?)`);
    this.insertRaw = db.prepare("INSERT INTO message_raw (id, raw, head_only) VALUES (?, ?, ?)");
    this.seen = db.prepare("INSERT INTO events (key, at_ms, kind, detail) VALUES (?, ?, 'seen', ?)");
    this.takeSeq = db.prepare("UPDATE meta SET value = value + ? WHERE name = 'seq' RETURNING value").pluck();
    this.countDone = db.prepare("UPDATE sources SET files = files + ? WHERE id = ?");
    this.triggerWork = new LoadTriggerWork(db);
    this.settler = new LoadSettler(db);
  }

  /** The rows of `records` (no database work: a worker builds them while another one writes). */
  static rowsOf(records: readonly FileRecord[], nowMs: number): BulkRow[] {
    return records.map((rec) => {
      const atMs = Math.min(rec.found.mtimeMs || nowMs, nowMs);
      return { rec, atMs, values: valuesOf(rec, atMs, 0) };
    });
  }

  /**
   * Insert `rows` (call inside a transaction, which publishes them to pollers as one change, every
   * message shown settled) and count `files` (read or not) as done for the source's progress.
   * `nowMs`: the writer's clock, for the events of duplicates found.
   */
  insertRows(source: string, rows: readonly BulkRow[], files: number, nowMs: number): void {
    const known = this.settler.keysBeforeInsert(
      rows.map(({ rec, values }) => ({
        messageId: rec.parsed.messageId, inReplyTo: rec.parsed.inReplyTo, waits: waitsOf(rec), ownGroup: ownGroupOfValues(values),
      })),
    );
    rows.forEach(({ values }, i) => known[i] !== undefined && (values[THREAD_KEY_COLUMN] = known[i]));
    let seq = (this.takeSeq.get(rows.length) as number) - rows.length;
    for (const { rec, atMs, values } of rows) {
      values[SEQ_COLUMN] = ++seq;
      const threadKey = values[THREAD_KEY_COLUMN];
      let id: number | bigint | null;
      for (let attempt = 1; (id = this.tryInsert(values, attempt)) === null; attempt++) {
        // Two files whose keys' short hashes collide: the later one takes the next attempt, as the writer does.
        values.splice(0, values.length, ...valuesOf(rec, atMs, attempt));
        values[SEQ_COLUMN] = seq;
        values[THREAD_KEY_COLUMN] = threadKey;
      }
      if (rec.raw !== null) this.insertRaw.run(id, rec.raw, rec.rawIsHead ? 1 : 0);
      this.seen.run(values[KEY_COLUMN], atMs, firstSeenDetail(rec));
    }
    this.triggerWork.apply(
      rows.map(({ rec, atMs, values }) => ({
        source: rec.source, agent: rec.placement.agent, deadLetter: rec.placement.folder === DEAD_LETTER_FOLDER, status: rec.parsed.status,
        atMs, threadKey: values[THREAD_KEY_COLUMN] as string | null, sortMs: values[SORT_COLUMN] as number, type: rec.parsed.type,
      })),
    );
    this.settler.settle(
      source,
      rows.map(({ rec, values }, i) => ({ key: values[KEY_COLUMN] as string, messageId: rec.parsed.messageId, waits: waitsOf(rec) && known[i] === undefined })),
      nowMs,
    );
    this.countDone.run(files, source);
  }

  /** The new row's id, or null when the key is taken (the only unique constraint a load keeps is the key's). */
  private tryInsert(values: unknown[], attempt: number): number | bigint | null {
    try {
      return this.insert.run(...values).lastInsertRowid;
    } catch (err) {
      const taken = (err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" && String(err).includes("messages.key");
      if (taken && attempt < MAX_KEY_ATTEMPTS) return null;
      throw err;
    }
  }
}

/** Messages a journal may hold and still take a load: its indexes' rebuild then costs tens of ms. */
export const LOAD_BESIDE_AT_MOST = 10_000;

/**
 * The first scan of an empty journal, at insert speed: plain INSERTs with the secondary indexes
 * and the insert triggers (load-triggers.ts) set aside. What links messages (replies without a
 * Thread-ID take their parent's thread; two files with one Message-ID are duplicates) is settled
 * by each chunk for what is loaded so far (load-settle.ts), and once more by the writer's own
 * logic at the end, for what no chunk could: a reply whose parent never came takes its own group.
 * The result is the journal the writer would have built file by file, but for
 * row ids and seq numbers, which follow the order chunks are written in (lib/ingest/bulk-scan.test.ts
 * compares the two). Only for new messages: dead letters, which link
 * to another message, go through the writer after finish().
 */
export class BulkLoad {
  private inserter: BulkInserter | null = null;

  private constructor(
    private readonly db: Db,
    private readonly writer: JournalWriter,
    private readonly now: () => number,
  ) {}

  /** A loader when the journal holds no messages at all (else null: the writer's path is the right one). */
  static begin(db: Db, writer: JournalWriter, now: () => number = Date.now, source?: string): BulkLoad | null {
    // A journal of a few messages still takes a load: rebuilding the indexes over them too costs
    // milliseconds. A start on a tree of several protocols journals the others' newest first. Not
    // one of `source`'s own (a file gone and back would be inserted twice).
    if (db.prepare("SELECT count(*) FROM (SELECT 1 FROM messages LIMIT ?)").pluck().get(LOAD_BESIDE_AT_MOST) === LOAD_BESIDE_AT_MOST) return null;
    if (source !== undefined && db.prepare("SELECT 1 FROM messages WHERE source = ? LIMIT 1").get(source)) return null;
    deferIndexes(db, ["messages", "events"], { keep: LOAD_KEEPS, triggers: LOAD_SETS_ASIDE });
    return new BulkLoad(db, writer, now);
  }

  /**
   * Run `fn` (the writer's own journaling, which needs the indexes and the insert triggers) with
   * them back, then set them aside again. Costs a build of each index over the rows loaded so far,
   * so it is for early in a load (see scanSource). A worker's chunk meanwhile waits its write turn;
   * one after it finds the triggers in place or not and does their work once either way.
   */
  withIndexes<T>(fn: () => T): T {
    restoreIndexes(this.db);
    try {
      return fn();
    } finally {
      deferIndexes(this.db, ["messages", "events"], { keep: LOAD_KEEPS, triggers: LOAD_SETS_ASIDE });
    }
  }

  /** For loading on other connections (worker threads); the caller ends them all before finish(). */
  target(): BulkTarget {
    return { file: this.db.name, nowMs: this.now() };
  }

  /** Insert new messages on this connection, in one transaction. */
  add(source: string, records: readonly FileRecord[], files: number): void {
    this.inserter ??= new BulkInserter(this.db);
    const inserter = this.inserter;
    const rows = BulkInserter.rowsOf(records, this.now());
    this.writer.transaction(() => inserter.insertRows(source, rows, files, this.now()));
  }

  /**
   * Build the indexes, then settle what needed the whole load: replies whose parent was never
   * loaded, and anything a chunk left (each chunk settled what it could: this is then mostly
   * lookups that change nothing). Also right for a load that stopped part-way: what it loaded
   * stays, and is consistent.
   */
  finish(source: string): void {
    restoreIndexes(this.db);
    this.writer.transaction(() => {
      const replies = this.db
        .prepare("SELECT key FROM messages WHERE source = ? AND thread_id IS NULL AND in_reply_to IS NOT NULL ORDER BY id")
        .pluck()
        .all(source) as string[];
      for (const key of replies) refreshThreadKey(this.db, key);
      // Message-IDs held twice are found in the index alone first: filtering every row by source
      // and path read the whole table, 5.2 s at a million messages against 0.46 s.
      const shared = this.db
        .prepare(`SELECT message_id FROM messages WHERE source = ? AND path IS NOT NULL AND message_id IN (
            SELECT message_id FROM messages WHERE message_id IS NOT NULL GROUP BY message_id HAVING count(*) > 1)
          GROUP BY message_id HAVING count(*) > 1`)
        .pluck()
        .all(source) as string[];
      const sharing = this.db.prepare("SELECT key FROM messages WHERE message_id = ?").pluck();
      for (const messageId of shared) {
        this.writer.refreshDuplicates(source, messageId);
        for (const key of sharing.all(messageId) as string[]) refreshThreadKey(this.db, key);
      }
      // Re-threading takes no seq of its own: the thread list and pages, cached by seq, must see it.
      this.writer.markChanged();
    });
  }
}

/** A record only for reading the column list (a hoisted function: COLUMNS above needs it first). */
function probeRecord(): FileRecord {
  return {
    source: "", protocol: "ignite", relPath: null, originPath: "", placement: { agent: "", folder: "queue" },
    found: { mtimeMs: 0, size: 0, ino: 0 },
    parsed: {
      messageId: null, from: null, to: [], cc: [], type: null, priority: null, threadId: null, inReplyTo: null,
      correlationId: null, repository: null, issue: null, date: null, rawStatus: null, status: "probe",
      retryCount: 0, nextRetryAt: null, body: "", problems: [], deadLetter: null,
    },
    raw: null,
  };
}
