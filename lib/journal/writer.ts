import "server-only";
import { DEAD_LETTER_FOLDER, PROTOCOLS, type Folder, type Protocol, type Status } from "@/lib/model";
import { statusDefinition } from "@/lib/protocols";
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
import { currentSeq } from "./queries";
import { setLoadClaim } from "./load-claim";
import { firstSeenDetail, messageRow } from "./message-row";
import { refreshThreadKey } from "./thread-keys";

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

/** A journaled message a new file may continue: where its file is (null once gone), and whose queue it is in. */
export interface ClaimCandidate {
  key: string;
  path: string | null;
  agent: string;
  /** A dead letter holds it: a file with its Message-ID that appears once it is gone is most likely its requeue. */
  held: boolean;
  /** Where its file is, or last was. */
  lastPath: string | null;
  retryCount: number;
}

type CandidateRow = Omit<ClaimCandidate, "held"> & { held: number };
const toCandidate = ({ held, ...c }: CandidateRow): ClaimCandidate => ({ ...c, held: held === 1 });
/** What a message was when a clean-up removed its file, in words (its status's own, from its catalog). */
function wasWhat(row: { status: Status; stuck: number; folder: Folder; protocol: string }): string {
  if (row.folder === DEAD_LETTER_FOLDER) return "a dead letter (its message never got through)";
  if (row.stuck) return `stuck in ${FILE_LIFE.stuck}`;
  const protocol = PROTOCOLS.find((p) => p === row.protocol);
  return statusDefinition(row.status, protocol).whenGone ?? row.status;
}

/**
 * Rewrites of one file this close together are one step (the queue monitor's retry runs its four
 * rewrites one tool start apart, about 0.1 s each; its polls are 10 s apart).
 */
const REWRITE_BURST_MS = 5_000;

const HELD = "EXISTS (SELECT 1 FROM messages AS letter WHERE letter.dead_letter_of = messages.key)";
const CANDIDATE_COLUMNS = `key, path, agent, ${HELD} AS held, coalesce(path, last_path) AS lastPath, retry_count AS retryCount`;

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

/**
 * Completed messages whose files are gone, the only ones retention prunes (INDEXED BY: see prune);
 * not while a dead letter on disk holds one (archived at its requeue): the letter would lose its
 * message, and restoring the letter could not make it dead again.
 */
const PRUNABLE = `FROM messages AS m INDEXED BY messages_prunable WHERE status = '${FILE_LIFE.deleted}' AND path IS NULL
  AND NOT EXISTS (SELECT 1 FROM messages AS letter WHERE letter.dead_letter_of = m.key AND letter.path IS NOT NULL)`;
/** Messages pruned in one write at most. */
export const PRUNE_BATCH = 5000;

/** A stuck sweep: the mtime it marked up to, and the journal's seq when it was done (see sweepStuck). */
interface StuckSweep {
  threshold: number;
  seq: number;
}

/** The ingest side of the journal: every change bumps the global `seq`, so polls cost O(change). */
export class JournalWriter {
  /** Each SQL text prepared once (see prepared.ts). */
  private readonly sql: (text: string) => Statement;
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  private readonly sweepStuckOnce: Transaction<(stuckAfterMs: number) => number>;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = preparedOnce(db);
    // Created once: db.transaction() prepares its BEGIN/COMMIT statements each time it is called.
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
    this.sweepStuckOnce = db.transaction((stuckAfterMs: number) => this.sweepStuck(stuckAfterMs));
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
    const row = this.sql("UPDATE meta SET value = value + 1 WHERE name = 'seq' RETURNING value").get() as {
      value: number;
    };
    return row.value;
  }

  /** `fromStatus`: for a status event, the status it left (migration 18). */
  private event(key: string, atMs: number, kind: string, detail: string, fromStatus: Status | null = null): void {
    this.sql("INSERT INTO events (key, at_ms, kind, detail, from_status) VALUES (?, ?, ?, ?, ?)").run(key, atMs, kind, detail, fromStatus);
  }

  /** The last event of a message when it is a rewrite in place (kind rewritten or status) at most REWRITE_BURST_MS before `atMs`. */
  private lastRewrite(key: string, atMs: number): { id: number; kind: string; fromStatus: Status | null } | null {
    const last = this.sql("SELECT id, at_ms, kind, from_status AS fromStatus FROM events WHERE key = ? ORDER BY id DESC LIMIT 1").get(key) as
      | { id: number; at_ms: number; kind: string; fromStatus: Status | null }
      | undefined;
    const inBurst = last && (last.kind === "rewritten" || last.kind === "status") && Math.abs(atMs - last.at_ms) <= REWRITE_BURST_MS;
    return inBurst ? last : null;
  }

  private dropRewriteBurst(key: string, atMs: number): void {
    const last = this.lastRewrite(key, atMs);
    if (last) this.sql("DELETE FROM events WHERE id = ?").run(last.id);
  }

  /**
   * A file rewritten where it is. Rewrites in one burst are one entry: the tools change a file one
   * header at a time (IGNITE's retry is four rewrites by four tool runs, then a move), and one
   * step of the message's life should read as one.
   */
  private rewriteEvent(key: string, fileMs: number, from: Status, to: Status, size: number): void {
    // The file's time, but never before a step already journaled: a move is timed when it is seen,
    // and the kernel's file clock runs up to a tick behind that, so a rewrite right after sorted first.
    const latest = this.sql("SELECT max(at_ms) FROM events WHERE key = ?").pluck().get(key) as number | null;
    const atMs = Math.max(fileMs, latest ?? fileMs);
    const last = this.lastRewrite(key, atMs);
    // A status event journaled before migration 18 has no from_status: the burst starts here then.
    const first = (last?.kind === "status" ? last.fromStatus : null) ?? from;
    if (last) this.sql("DELETE FROM events WHERE id = ?").run(last.id);
    if (first !== to) this.event(key, atMs, "status", `${first} → ${to}`, first);
    else this.event(key, atMs, "rewritten", `file rewritten (${size} bytes)`);
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
    this.sql("UPDATE sources SET agents = ? WHERE id = ?").run(JSON.stringify(agents.filter((a) => a !== "")), id);
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
    return this.sql("SELECT 1 FROM messages WHERE source = ? AND path IS NOT NULL LIMIT 1").get(source) !== undefined;
  }

  known(source: string, relPath: string): KnownFile | null {
    const row = this.sql("SELECT key, mtime_ms AS mtimeMs, size, ino FROM messages WHERE source = ? AND path = ?")
      .get(source, relPath) as KnownFile | undefined;
    return row ?? null;
  }

  /** Messages a new file could be the continuation of: same Message-ID, or same agent and name. */
  claimCandidates(source: string, messageId: string | null, agent: string, fileName: string): ClaimCandidate[] {
    if (messageId) {
      return (this.sql(`SELECT ${CANDIDATE_COLUMNS} FROM messages WHERE source = ? AND message_id = ? ORDER BY updated_ms DESC`)
        .all(source, messageId) as CandidateRow[]).map(toCandidate);
    }
    // By name, where the file is or (once gone) where it last was: not any gone message without an
    // ID, whose content the new file would overwrite. Compared exactly: `_` is a LIKE wildcard.
    return (this.sql(
        `SELECT ${CANDIDATE_COLUMNS} FROM messages WHERE source = ? AND message_id IS NULL AND agent = ?
           AND substr(coalesce(path, last_path), -length(?) - 1) = '/' || ? ORDER BY updated_ms DESC`,
      )
      .all(source, agent, fileName, fileName) as CandidateRow[]).map(toCandidate);
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
      if (step.kind === "retried") this.dropRewriteBurst(key, this.now());
      // rename(2) keeps the mtime, so a move is timed when it is seen.
      this.event(key, this.now(), step.kind, step.detail);
      this.refreshDuplicates(rec.source, p.messageId);
      if (before.dead_letter_of) this.settleHeldStatus(before.dead_letter_of);
      return { key, change: "moved" };
    }
    this.rewriteEvent(key, atMs, before.status, p.status, rec.found.size);
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
    return this.sql("SELECT count(*) FROM messages WHERE source = ? AND path IS NOT NULL").pluck().get(source) as number;
  }

  /**
   * A message whose file is gone: its content stays; it is completed, or dead if a dead letter
   * holds it. Gone in a clean-up (`sweep`: so many files went at once that no agent did it), it is
   * cleared, and its history says what it was when it went.
   */
  markGone(source: string, relPath: string, sweep?: { others: number; atMs: number }): string | null {
    const row = this.sql("SELECT key, protocol, status, stuck, folder, message_id, dead_letter_of FROM messages WHERE source = ? AND path = ?").get(source, relPath) as
      | { key: string; protocol: string; status: Status; stuck: number; folder: Folder; message_id: string | null; dead_letter_of: string | null }
      | undefined;
    if (!row) return null;
    // Only a dead letter still in dead_letter/ makes it dead: one archived after a requeue does not.
    const heldByDeadLetter = this.sql(`SELECT 1 FROM messages WHERE dead_letter_of = ? AND folder = '${DEAD_LETTER_FOLDER}' AND path IS NOT NULL LIMIT 1`).get(row.key);
    const kept = FILE_LIFE.kept.includes(row.status) || (row.status === FILE_LIFE.discarded && !sweep);
    const status: Status = heldByDeadLetter ? FILE_LIFE.held : kept ? row.status : sweep ? FILE_LIFE.cleared : FILE_LIFE.deleted;
    const atMs = this.now();
    this.sql("UPDATE messages SET path = NULL, status = ?, stuck = 0, updated_ms = ?, seq = ? WHERE key = ?")
      .run(status, atMs, this.nextSeq(), row.key);
    const how = sweep
      ? `was removed with ${sweep.others} other files at ${new Date(sweep.atMs).toISOString()}, a clean-up, not its agent: it was ${wasWhat(row)}`
      : "was deleted";
    this.event(row.key, atMs, "gone", `${relPath} ${how}; now ${status}`);
    this.refreshDuplicates(source, row.message_id);
    if (row.dead_letter_of) this.settleHeldStatus(row.dead_letter_of);
    return row.key;
  }

  /**
   * A message whose file is gone lives on as its dead letters: dead while one is in dead_letter/
   * (restored there, even after it was requeued and completed), discarded once none is and one is
   * in the archive. A rebuilt journal reads the same files the same way (lib/ingest/sync.ts
   * prepareOriginal). With no dead letter left on disk, it stays as it was.
   */
  private settleHeldStatus(originalKey: string): void {
    if (this.heldToSettle) this.heldToSettle.add(originalKey);
    else this.settleHeldStatusNow(originalKey);
  }

  /** Originals whose status waits for the end of settlingOnce(). */
  private heldToSettle: Set<string> | null = null;

  /**
   * Run `fn` (inside a transaction) with each message held by dead letters settled once, at its
   * end, as its letters then stand: a rescan that finds one letter archived and another written
   * would otherwise journal "dead → discarded", then "discarded → dead", a stay that never was.
   */
  settlingOnce<T>(fn: () => T): T {
    if (this.heldToSettle) return fn();
    const held = (this.heldToSettle = new Set());
    try {
      const result = fn();
      this.heldToSettle = null;
      for (const key of held) this.settleHeldStatusNow(key);
      return result;
    } finally {
      this.heldToSettle = null;
    }
  }

  private settleHeldStatusNow(originalKey: string): void {
    const original = this.row(originalKey);
    if (!original || original.path !== null) return;
    const letters = this.sql("SELECT folder FROM messages WHERE dead_letter_of = ? AND path IS NOT NULL").pluck().all(originalKey) as Folder[];
    let status = original.status;
    // Whatever it was when its file went (completed, discarded, or invalid: unreadable, yet dead-lettered).
    if (letters.includes(DEAD_LETTER_FOLDER)) status = FILE_LIFE.held;
    else if (letters.includes(FILE_LIFE.archive) && status === FILE_LIFE.held) status = FILE_LIFE.discarded;
    if (status === original.status) return;
    const atMs = this.now();
    this.sql("UPDATE messages SET status = ?, updated_ms = ?, seq = ? WHERE key = ?").run(status, atMs, this.nextSeq(), originalKey);
    this.event(originalKey, atMs, "status", `${original.status} → ${status}`);
  }

  /**
   * Link a dead letter to the message it holds. It was dead-lettered when the dead letter was
   * written (its date), not when Mailroom first read it; what that makes of a message whose file is
   * gone is settled as the letters stand now (settleHeldStatus), with a status event dated now. A
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
    this.settleHeldStatus(originalKey);
  }

  /** Flag every present file that shares a Message-ID with another present file (see duplicates.ts). */
  refreshDuplicates(source: string, messageId: string | null): void {
    refreshDuplicates(this.sql, source, messageId, this.now());
  }

  /**
   * Retention: forget the oldest completed messages whose files are gone — older than `maxAgeMs`
   * (by when they went), and beyond the newest `maxCount`. Nothing on disk, dead or discarded is
   * ever pruned. 0 turns a limit off. At most `batch` go in one call (the oldest first), so a
   * first prune of a long history does not hold the journal in one long write; returns how many
   * were pruned. Runs after every rescan, so it reads only what it prunes: the prunable are their
   * own index (migration 14), and a count limit is first checked against the overview's counts,
   * then walks only the messages it keeps.
   */
  prune(maxAgeMs: number, maxCount: number, batch = PRUNE_BATCH): number {
    // Both limits doom the oldest first, in one order: what they doom together is the longer list.
    const byAge = maxAgeMs > 0
      ? (this.sql(`SELECT key ${PRUNABLE} AND updated_ms < ? ORDER BY updated_ms, key LIMIT ?`).pluck().all(this.now() - maxAgeMs, batch) as string[])
      : [];
    const completed = this.sql("SELECT coalesce(sum(n), 0) FROM agent_counts WHERE status = ?").pluck().get(FILE_LIFE.deleted) as number;
    let byCount: string[] = [];
    if (maxCount > 0 && completed > maxCount) {
      // The oldest message kept; those before it go.
      const kept = this.sql(`SELECT updated_ms, key ${PRUNABLE} ORDER BY updated_ms DESC, key DESC LIMIT 1 OFFSET ?`).get(maxCount - 1) as
        | { updated_ms: number; key: string }
        | undefined;
      if (kept) {
        byCount = this.sql(`SELECT key ${PRUNABLE} AND (updated_ms, key) < (?, ?) ORDER BY updated_ms, key LIMIT ?`)
          .pluck().all(kept.updated_ms, kept.key, batch) as string[];
      }
    }
    const doomed = byAge.length >= byCount.length ? byAge : byCount;
    if (doomed.length === 0) return 0;
    const dropMessage = this.sql("DELETE FROM messages WHERE key = ?");
    const dropEvents = this.sql("DELETE FROM events WHERE key = ?");
    this.transaction(() => {
      for (const key of doomed) {
        dropEvents.run(key);
        dropMessage.run(key);
      }
      // The journal changed (counts, last activity): a seq says so to whatever caches by it.
      this.nextSeq();
    });
    return doomed.length;
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

  /**
   * The sweep runs every second, so it reads only rows whose state may have changed, never every
   * stuck or processing message (at a million messages, with 20,000 of each, reading them took
   * 140 ms of every second). Time only makes a message stuck, and the candidates are kept in their
   * own small index (migration 13). A message stops being stuck only when it is written (it moves
   * on, is rewritten or goes away), and every write takes a new seq: so only rows written since
   * the last sweep need checking, or all stuck rows when there are fewer of those (after a burst
   * of writes, a first load), and always when the threshold went back (another timeout, the clock
   * set back) or there was no sweep yet. The last sweep is kept in the journal, in the sweep's own
   * transaction, so a restart goes on from it (at a million messages a full check read 20,000 rows
   * in 1.1 s).
   */
  private sweepStuck(stuckAfterMs: number): number {
    const threshold = this.now() - stuckAfterMs;
    // INDEXED BY: sampled statistics (analysis_limit) make the planner walk every processing row instead.
    const newlyStuck = this.sql(
      `SELECT key, mtime_ms FROM messages INDEXED BY messages_processing_unstuck
       WHERE status = '${FILE_LIFE.stuck}' AND stuck = 0 AND path IS NOT NULL AND mtime_ms <= ?`,
    ).all(threshold) as { key: string; mtime_ms: number }[];
    for (const r of newlyStuck) {
      this.sql("UPDATE messages SET stuck = 1, seq = ? WHERE key = ?").run(this.nextSeq(), r.key);
      this.event(r.key, r.mtime_ms + stuckAfterMs, "stuck", `${FILE_LIFE.stuck} for more than ${Math.round(stuckAfterMs / 1000)} s`);
    }
    const movedOn = `stuck = 1 AND (status != '${FILE_LIFE.stuck}' OR path IS NULL OR mtime_ms > ?)`;
    const last = this.lastStuckSweep();
    const stuckRows = this.sql("SELECT coalesce(sum(stuck), 0) FROM agent_counts").pluck().get() as number;
    const since = last && threshold >= last.threshold && currentSeq(this.db) - last.seq < stuckRows ? last.seq : null;
    const cleared = (
      since === null
        ? this.sql(`SELECT key FROM messages WHERE ${movedOn}`).all(threshold)
        : this.sql(`SELECT key FROM messages WHERE seq > ? AND ${movedOn}`).all(since, threshold)
    ) as { key: string }[];
    for (const r of cleared) this.sql("UPDATE messages SET stuck = 0, seq = ? WHERE key = ?").run(this.nextSeq(), r.key);
    const seq = currentSeq(this.db);
    // Kept as it is when nothing was written since: it still holds for every later threshold (and
    // an idle journal is not written every second).
    if (!last || seq !== last.seq || threshold < last.threshold) this.saveStuckSweep({ threshold, seq });
    return newlyStuck.length + cleared.length;
  }

  private lastStuckSweep(): StuckSweep | null {
    const kept = new Map(
      (this.sql("SELECT name, value FROM meta WHERE name IN ('stuck_swept_threshold', 'stuck_swept_seq')").all() as { name: string; value: number }[])
        .map((r) => [r.name, r.value]),
    );
    const [threshold, seq] = [kept.get("stuck_swept_threshold"), kept.get("stuck_swept_seq")];
    return threshold === undefined || seq === undefined ? null : { threshold, seq };
  }

  private saveStuckSweep(s: StuckSweep): void {
    const save = this.sql("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value");
    save.run("stuck_swept_threshold", s.threshold);
    save.run("stuck_swept_seq", s.seq);
  }
}
