import "server-only";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import { deferIndexes, restoreIndexes } from "./deferred-indexes";
import { makeKey } from "./keys";
import { firstSeenDetail, messageRow } from "./message-row";
import { ownGroupOf } from "./thread-sql";
import { refreshThreadKey } from "./thread-keys";
import type { FileRecord, JournalWriter } from "./writer";

/**
 * The first scan of an empty journal, at insert speed: plain INSERTs with the secondary indexes
 * set aside, thread keys and the first-seen event written with the row, and the rare follow-ups
 * (a reply whose parent came later, two files with one Message-ID) settled by the writer's own
 * logic once the indexes are back. The result is the journal the writer would have built file by
 * file (lib/ingest/bulk-scan.test.ts compares the two). Only for new messages: dead letters, which link to
 * another message, go through the writer after finish().
 */
export class BulkLoad {
  private readonly insert: Statement;
  private readonly seen: Statement;
  private readonly saveSeq: Statement;
  private seq: number;
  private readonly keys = new Set<string>();
  /** The smallest thread_key per Message-ID loaded so far: replies take their parent's thread. */
  private readonly threadOf = new Map<string, string>();
  /** Replies without a Thread-ID whose parent's thread was not known when they were loaded. */
  private readonly unresolved: string[] = [];
  private readonly filesPerMessageId = new Map<string, number>();

  private constructor(
    private readonly db: Db,
    private readonly writer: JournalWriter,
    private readonly now: () => number,
  ) {
    const columns = Object.keys(messageRow(PROBE, "", 0, 0));
    this.insert = db.prepare(`INSERT INTO messages (${columns.join(", ")}, thread_key) VALUES (${columns.map(() => "?").join(", ")}, ?)`);
    this.seen = db.prepare("INSERT INTO events (key, at_ms, kind, detail) VALUES (?, ?, 'seen', ?)");
    this.saveSeq = db.prepare("UPDATE meta SET value = ? WHERE name = 'seq'");
    this.seq = (db.prepare("SELECT value FROM meta WHERE name = 'seq'").pluck().get() as number | undefined) ?? 0;
  }

  /** A loader when the journal holds no messages at all (else null: the writer's path is the right one). */
  static begin(db: Db, writer: JournalWriter, now: () => number = Date.now): BulkLoad | null {
    if (db.prepare("SELECT 1 FROM messages LIMIT 1").get()) return null;
    deferIndexes(db, ["messages", "events"]);
    return new BulkLoad(db, writer, now);
  }

  /** Insert a new message (call inside a transaction; commitChunk() after). Returns its key. */
  add(rec: FileRecord): string {
    const p = rec.parsed;
    let key = makeKey(rec.source, rec.originPath, p.messageId, 0);
    for (let attempt = 1; this.keys.has(key); attempt++) key = makeKey(rec.source, rec.originPath, p.messageId, attempt);
    this.keys.add(key);
    const atMs = Math.min(rec.found.mtimeMs || this.now(), this.now());
    const row = messageRow(rec, key, atMs, ++this.seq);
    const own = ownGroupOf(row);
    let threadKey = own;
    if (row.thread_id === null && row.in_reply_to !== null) {
      const parent = this.threadOf.get(row.in_reply_to);
      if (parent !== undefined) threadKey = parent;
      else this.unresolved.push(key);
    }
    this.insert.run(...Object.values(row), threadKey);
    this.seen.run(key, atMs, firstSeenDetail(rec));
    if (p.messageId !== null) {
      const known = this.threadOf.get(p.messageId);
      if (threadKey !== null && (known === undefined || threadKey < known)) this.threadOf.set(p.messageId, threadKey);
      if (rec.relPath !== null) this.filesPerMessageId.set(p.messageId, (this.filesPerMessageId.get(p.messageId) ?? 0) + 1);
    }
    return key;
  }

  /** Publish the chunk's changes to pollers (inside the chunk's transaction). */
  commitChunk(): void {
    this.saveSeq.run(this.seq);
  }

  /**
   * Build the indexes, then settle what needed the whole load: late parents and duplicates. Also
   * right for a load that stopped part-way: what it loaded stays, and is consistent.
   */
  finish(source: string): void {
    this.commitChunk();
    restoreIndexes(this.db);
    this.writer.transaction(() => {
      for (const key of this.unresolved) refreshThreadKey(this.db, key);
      const sharing = this.db.prepare("SELECT key FROM messages WHERE message_id = ?").pluck();
      for (const [messageId, files] of this.filesPerMessageId) {
        if (files < 2) continue;
        this.writer.refreshDuplicates(source, messageId);
        const keys = sharing.all(messageId) as string[];
        for (const key of keys) refreshThreadKey(this.db, key);
      }
    });
  }
}

/** A record only for reading the column list. */
const PROBE: FileRecord = {
  source: "", protocol: "ignite", relPath: null, originPath: "", placement: { agent: "", folder: "queue" },
  found: { mtimeMs: 0, size: 0, ino: 0 },
  parsed: {
    messageId: null, from: null, to: [], cc: [], type: null, priority: null, threadId: null, inReplyTo: null,
    correlationId: null, repository: null, issue: null, date: null, rawStatus: null, status: "queued",
    retryCount: 0, nextRetryAt: null, body: "", problems: [], deadLetter: null,
  },
  raw: null,
};
