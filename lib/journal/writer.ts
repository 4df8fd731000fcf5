import "server-only";
import { DEAD_LETTER_FOLDER, type Folder, type Protocol, type Status } from "@/lib/model";
import type { FoundFile, ParsedMessage, Placement } from "@/lib/protocols/types";
import type { Statement, Transaction } from "better-sqlite3";
import { BulkLoad } from "./bulk";
import { refreshStatistics, type Db } from "./db";
import { preparedOnce } from "./prepared";
import { refreshDuplicates } from "./duplicates";
import { describeMove, type StepNamer } from "./events";
import { FILE_LIFE } from "./file-life";
import { fileIdentities, type FileIdentity } from "./files";
import { makeKey } from "./keys";
import { setLoadClaim } from "./load-claim";
import { firstSeenDetail, messageRow } from "./message-row";
import { claimCandidates, type ClaimCandidate } from "./claim-candidates";
import { markGone } from "./gone";
import { HeldStatus } from "./held-status";
import { dropRewriteBurst, rewriteEvent } from "./rewrite-events";
import { refreshThreadKey } from "./thread-keys";
import { prune, PRUNE_BATCH, sweepStuck } from "./upkeep";
import { addEvent, nextSeq, type WriterParts } from "./writer-parts";

/** One file as ingest saw it, ready to journal. */
export interface FileRecord {
  source: string;
  protocol: Protocol;
  relPath: string | null;
  /** Where the file is or was: names the key and the first-seen event when relPath is null. */
  originPath: string;
  placement: Placement;
  found: Pick<FoundFile, "mtimeMs" | "size" | "ino">;
  parsed: ParsedMessage;
  /** Exact bytes to keep; null when not kept (unreadable). */
  raw: Buffer | null;
  /** `raw` is only the file's head: it was too big to keep whole, so only its headers are. */
  rawIsHead?: boolean;
}

export interface KnownFile extends FileIdentity {
  key: string;
}

interface Row {
  key: string;
  path: string | null;
  folder: Folder;
  status: Status;
  retry_count: number;
  message_id: string | null;
  mtime_ms: number | null;
  size: number;
  ino: number | null;
  dead_letter_of: string | null;
}

/** The ingest side of the journal: every change bumps the global `seq`, so polls cost O(change). */
export class JournalWriter {
  /** Each SQL text prepared once (see prepared.ts). */
  private readonly sql: (text: string) => Statement;
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  private readonly sweepStuckOnce: Transaction<(stuckAfterMs: number) => number>;
  private readonly parts: WriterParts;
  private readonly held: HeldStatus;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = preparedOnce(db);
    // Created once: db.transaction() prepares its BEGIN/COMMIT statements each time it is called.
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
    this.parts = { db, sql: this.sql, now };
    this.held = new HeldStatus(this.parts);
    this.sweepStuckOnce = db.transaction((stuckAfterMs: number) => sweepStuck(this.parts, stuckAfterMs));
  }

  /** The fast path for a first scan of `source`, when the journal holds none of its messages and few others (else null). */
  beginBulkLoad(source?: string): BulkLoad | null {
    return BulkLoad.begin(this.db, this, this.now, source);
  }

  transaction<T>(fn: () => T): T {
    return this.runInTransaction(fn) as T;
  }

  /** The journal changed in a way no row's seq shows (threads settled after a load): whatever caches by seq computes again. */
  markChanged(): void {
    this.nextSeq();
  }

  private nextSeq(): number {
    return nextSeq(this.parts);
  }

  private event(key: string, atMs: number, kind: string, detail: string): void {
    addEvent(this.parts, key, atMs, kind, detail);
  }

  upsertSource(s: { id: string; protocol: Protocol; root: string; error: string | null }): void {
    this.sql(
        `INSERT INTO sources (id, protocol, root, error) VALUES (@id, @protocol, @root, @error)
         ON CONFLICT (id) DO UPDATE SET protocol = @protocol, root = @root, error = @error`,
      )
      .run(s);
  }

  setAgents(id: string, agents: string[]): void {
    // A workspace-wide file (a workflow's logs or registry) is placed with no agent: that is no agent.
    // The dead-letter queue is a folder beside the agents' (IGNITE v2 and v3), not an agent.
    this.sql("UPDATE sources SET agents = ? WHERE id = ?").run(JSON.stringify(agents.filter((a) => a !== "" && a !== DEAD_LETTER_FOLDER)), id);
  }

  setProgress(id: string, files: number, total: number, done: boolean): void {
    this.sql("UPDATE sources SET files = ?, total = ?, done = ? WHERE id = ?").run(files, total, done ? 1 : 0, id);
  }

  /** See load-claim.ts. */
  setLoadClaim(id: string, completeAfterMs: number | null): void {
    setLoadClaim(this.db, id, completeAfterMs);
  }

  /** Forget sources no longer configured (their messages stay in the journal). */
  keepOnlySources(ids: string[]): void {
    const placeholders = ids.map(() => "?").join(",") || "''";
    this.sql(`DELETE FROM sources WHERE id NOT IN (${placeholders})`).run(...ids);
  }

  /** Every file the journal believes is on disk for a source, by path (read in pages, `pause()` between them). */
  presentFiles(source: string, pause: () => Promise<void>): Promise<Map<string, FileIdentity>> {
    return fileIdentities(this.db, source, pause);
  }

  /** Whether any file of the source is journaled as on disk. */
  holdsFiles(source: string): boolean {
    return this.sql("SELECT 1 FROM messages WHERE source = ? AND path IS NOT NULL AND locator = '' LIMIT 1").get(source) !== undefined;
  }

  known(source: string, relPath: string): KnownFile | null {
    const row = this.sql("SELECT key, mtime_ms AS mtimeMs, size, ino FROM messages WHERE source = ? AND path = ? AND locator = ''")
      .get(source, relPath) as KnownFile | undefined;
    return row ?? null;
  }

  /** Messages a new file could be the continuation of: same Message-ID, or same agent and name. */
  claimCandidates(source: string, messageId: string | null, agent: string, fileName: string): ClaimCandidate[] {
    return claimCandidates(this.parts, source, messageId, agent, fileName);
  }

  private row(key: string): Row | null {
    return (
      (this.sql("SELECT key, path, folder, status, retry_count, message_id, mtime_ms, size, ino, dead_letter_of FROM messages WHERE key = ?")
        .get(key) as Row | undefined) ?? null
    );
  }

  private newKey(rec: FileRecord): string {
    const exists = this.sql("SELECT 1 FROM messages WHERE key = ?");
    for (let attempt = 0; ; attempt++) {
      const key = makeKey(rec.source, rec.originPath, rec.parsed.messageId, attempt);
      if (!exists.get(key)) return key;
    }
  }

  /**
   * Journal one file. `claimKey` continues an existing message (a move, rename or requeue);
   * without it a file at a known path updates that message, and an unknown path is a new one.
   * `stepOf`: the protocol's name for a move's step (a retry, a requeue); without it a move is a move.
   */
  record(rec: FileRecord, claimKey: string | null = null, stepOf?: StepNamer): { key: string; change: "new" | "moved" | "changed" | "unchanged" } {
    const p = rec.parsed;
    const atMs = Math.min(rec.found.mtimeMs || this.now(), this.now());
    const existingKey = claimKey ?? (rec.relPath ? this.known(rec.source, rec.relPath)?.key ?? null : null);
    const before = existingKey ? this.row(existingKey) : null;
    if (
      before && before.path === rec.relPath && before.mtime_ms === rec.found.mtimeMs &&
      before.size === rec.found.size && before.ino === rec.found.ino
    ) {
      return { key: before.key, change: "unchanged" };
    }
    const key = before?.key ?? this.newKey(rec);
    const values = messageRow(rec, key, atMs, this.nextSeq());
    const columns = Object.keys(values);
    this.sql(
        `INSERT INTO messages (${columns.join(", ")}) VALUES (${columns.map((c) => "@" + c).join(", ")})
         ON CONFLICT (key) DO UPDATE SET ${columns.filter((c) => c !== "key").map((c) => `${c} = excluded.${c}`).join(", ")},
           stuck = CASE WHEN excluded.status = '${FILE_LIFE.stuck}' THEN messages.stuck ELSE 0 END`,
      )
      .run(values);
    this.keepRaw(key, rec.raw, rec.rawIsHead ?? false);
    refreshThreadKey(this.db, key);

    const after = { path: rec.relPath, folder: rec.placement.folder, status: p.status, retryCount: p.retryCount };
    if (!before) {
      this.event(key, atMs, "seen", firstSeenDetail(rec));
      this.refreshDuplicates(rec.source, p.messageId);
      return { key, change: "new" };
    }
    if (before.path !== rec.relPath) {
      const was = { path: before.path, folder: before.folder, status: before.status, retryCount: before.retry_count };
      const step = describeMove(was, after, stepOf?.(was, after) ?? null);
      // A retry rewrites the file where it is, then moves it: the rewrites were this step.
      if (step.kind === "retried") dropRewriteBurst(this.parts, key, this.now());
      // rename(2) keeps the mtime, so a move is timed when it is seen.
      this.event(key, this.now(), step.kind, step.detail);
      this.refreshDuplicates(rec.source, p.messageId);
      if (before.dead_letter_of) this.held.settle(before.dead_letter_of);
      return { key, change: "moved" };
    }
    rewriteEvent(this.parts, key, atMs, before.status, p.status, rec.found.size);
    return { key, change: "changed" };
  }

  /**
   * An operator's action (requeue, retry, discard, …): what, from where and which files. The
   * resulting file changes reach the journal through ingest like any other change.
   */
  recordAction(key: string, kind: string, detail: string): void {
    this.event(key, this.now(), kind, detail);
    this.sql("UPDATE messages SET seq = ? WHERE key = ?").run(this.nextSeq(), key);
  }

  /** How many files of a source the journal holds as on disk. */
  countPresentFiles(source: string): number {
    return this.sql("SELECT count(*) FROM messages WHERE source = ? AND path IS NOT NULL AND locator = ''").pluck().get(source) as number;
  }

  /** A message whose file is gone (see gone.ts); its key, or null when it was not journaled. */
  markGone(source: string, relPath: string, sweep?: { others: number; atMs: number }): string | null {
    return markGone(this.parts, this.held, source, relPath, sweep);
  }

  /** Run `fn` (inside a transaction) with each message held by dead letters settled once, at its end (see HeldStatus). */
  settlingOnce<T>(fn: () => T): T {
    return this.held.settlingOnce(fn);
  }

  /**
   * Link a dead letter to the message it holds. It was dead-lettered when the dead letter was
   * written (its date), not when Mailroom first read it; what that makes of a message whose file is
   * gone is settled as the letters stand now (HeldStatus), with a status event dated now. A
   * letter read late is dated before events the journal already holds, so its own time must not
   * decide the message's present state.
   */
  linkDeadLetter(deadLetterKey: string, originalKey: string, detail: string): void {
    const current = this.sql("SELECT dead_letter_of, sort_ms FROM messages WHERE key = ?").get(deadLetterKey) as
      | { dead_letter_of: string | null; sort_ms: number }
      | undefined;
    if (current?.dead_letter_of === originalKey) return;
    const atMs = Math.min(this.now(), current?.sort_ms ?? Infinity);
    this.sql("UPDATE messages SET dead_letter_of = ?, seq = ? WHERE key = ?").run(originalKey, this.nextSeq(), deadLetterKey);
    refreshThreadKey(this.db, deadLetterKey);
    this.event(originalKey, atMs, "dead-lettered", detail);
    this.held.settle(originalKey);
  }

  /** Flag every present file that shares a Message-ID with another present file (see duplicates.ts). */
  refreshDuplicates(source: string, messageId: string | null): void {
    refreshDuplicates(this.sql, source, messageId, this.now());
  }

  /** Retention (see upkeep.ts): forget up to `batch` of the oldest completed messages whose files are gone. */
  prune(maxAgeMs: number, maxCount: number, batch = PRUNE_BATCH): number {
    return prune(this.parts, (fn) => this.transaction(fn), maxAgeMs, maxCount, batch);
  }

  /**
   * Give the query planner statistics once a scan has filled the journal: without them it guesses,
   * and at 100k a guess like "sort every leader message" costs 80 ms. analysis_limit keeps it quick.
   * Only tables never analyzed or grown tenfold since are (optimize's 0x10000: all tables, not only
   * those this connection queried): a restart at a million messages would otherwise hold the main
   * thread 3 s to learn what the journal already knows.
   */
  analyze(): void {
    refreshStatistics(this.db);
  }

  /**
   * Mark messages processing longer than the timeout as stuck (and clear it once they move on), as
   * one write: pollers see the whole sweep or none of it, and after a first scan it can be thousands
   * of rows (2,000 cost 0.4 s with a commit each). BEGIN IMMEDIATE: the sweep reads before it
   * writes, and SQLite fails a deferred transaction's upgrade at once, without the busy timeout,
   * when a load's worker holds the write lock.
   */
  refreshStuck(stuckAfterMs: number): number {
    return this.sweepStuckOnce.immediate(stuckAfterMs);
  }

  /** The file's bytes as the message's copy (of a file too big to keep, its head), or none (a file that could not be read). */
  private keepRaw(key: string, raw: Buffer | null, isHead: boolean): void {
    if (raw === null) this.sql("DELETE FROM message_raw WHERE id = (SELECT id FROM messages WHERE key = ?)").run(key);
    else {
      this.sql(
          `INSERT INTO message_raw (id, raw, head_only) SELECT id, ?, ? FROM messages WHERE key = ?
           ON CONFLICT (id) DO UPDATE SET raw = excluded.raw, head_only = excluded.head_only`,
        )
        .run(raw, isHead ? 1 : 0, key);
    }
  }

}
