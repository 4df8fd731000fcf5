import "server-only";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { restoreIndexes } from "./deferred-indexes";
import { settleWaitingReplies } from "./load-settle";
import { LOAD_SETS_ASIDE, rebuildTriggerTables } from "./load-triggers";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema";

export type Db = Database.Database;

export class JournalVersionError extends Error {}

/** The journal's folder could not be made (its `code` the file system's: EACCES, EROFS, ENOSPC…). */
export class JournalFolderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Bring a journal up to the current schema, one versioned step at a time. */
export function migrate(db: Db, upTo: number = SCHEMA_VERSION): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new JournalVersionError(
      `The journal ${db.name} has schema version ${current}, newer than this Mailroom knows (${SCHEMA_VERSION}). ` +
        "Upgrade Mailroom, or point MAILROOM_DATA at another folder.",
    );
  }
  for (let v = current; v < upTo; v++) {
    const step = MIGRATIONS[v];
    if (step === undefined) break;
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** How long a write waits for another connection's write to end before it fails as "busy". */
export const BUSY_TIMEOUT_MS = 5000;

/** The connection settings every connection to a journal uses (the main one and a bulk load's workers'). */
function configure(db: Db): Db {
  db.pragma("synchronous = NORMAL");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma("foreign_keys = ON");
  // The indexes of a 100k-message journal outgrow SQLite's 2 MB default cache. Each append to a
  // 100 MB channel (70,000 messages) touches a leaf of each: with 32 or 64 MB those were read
  // again every time, 100 reads of 16 KB an append and 1.2 ms of CPU; with 96 MB, 4 reads and
  // 0.6 ms. A cache grows only as pages are used. No mmap: mapped pages count toward the server's
  // memory, which has a budget.
  db.pragma("cache_size = -98304");
  db.pragma("temp_store = MEMORY");
  // An append batch's rows are staged in a temp table (entry-messages.ts insertStaged): emptied,
  // its pages would stay the connection's for as long as the server runs (a 16 MB batch, 16 MB).
  db.pragma("temp.auto_vacuum = FULL");
  // A first scan's index builds, or an upgrade (migration 15), write hundreds of MB through the WAL
  // in one transaction; without a limit the file keeps that size for as long as the server runs.
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  // A checkpoint copies each page the WAL holds into the database once, however often commits
  // rewrote it, and a steady writer rewrites the same pages in every commit (the leaves where
  // random keys land: message keys and ids). At SQLite's 1,000 pages (16 MB, a commit or two of
  // 1,000 appends a second) nearly every commit's pages were copied again; checkpointed only at the
  // WAL's size limit, an append to a 50 MB KickLang channel (batches of 200) wrote 30.9 KB instead
  // of 36.4, read 8.3 KB instead of 13.9, and took 0.20 CPU-ms instead of 0.24 (two runs each).
  db.pragma(`wal_autocheckpoint = ${checkpointPages(db)}`);
  return db;
}

/** The WAL's pages at its size limit (WAL_SIZE_LIMIT), when a checkpoint runs: 4,096 of 16 KB. */
export const checkpointPages = (db: Db): number => Math.floor(WAL_SIZE_LIMIT / (db.pragma("page_size", { simple: true }) as number));

/**
 * The query planner's statistics of the tables never analyzed or grown tenfold since they were
 * (see JournalWriter.analyze), sampled (analysis_limit) so it stays quick.
 */
export function refreshStatistics(db: Db): void {
  db.exec("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002;");
}

/** What the WAL file is cut back to once a checkpoint has emptied it. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** Open (creating if needed) a journal file: WAL, so readers never wait for the ingest writer. */
export function openDb(file: string): Db {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  } catch (err) {
    const { code = "EIO", message } = err as NodeJS.ErrnoException;
    throw new JournalFolderError(code, `cannot create the journal's folder: ${message}`);
  }
  const db = new Database(file);
  try {
    // 16 KB pages (for a new journal; an existing one keeps its size): a first scan writes and
    // indexes ~1 KB rows twice as fast as with 4 KB pages, and a small update costs little more.
    if ((db.pragma("user_version", { simple: true }) as number) === 0) db.pragma("page_size = 16384");
    db.pragma("journal_mode = WAL");
    configure(db);
    // A first scan that stopped mid-load (crash, kill, a failed end) left indexes and triggers set
    // aside: back first, as defined at that journal's version, before a migration may redefine them.
    const parked = restoreIndexes(db);
    migrate(db);
    rebuildAfterLoad(db, parked);
    return db;
  } catch (err) {
    // Closed, so that a journal that cannot be opened can be moved aside and no handle leaks per try.
    db.close();
    throw err;
  }
}

function rebuildAfterLoad(db: Db, restored: string[]): void {
  if (!restored.some((name) => (LOAD_SETS_ASIDE as readonly string[]).includes(name))) return;
  db.transaction(() => {
    rebuildTriggerTables(db);
    settleWaitingReplies(db);
  })();
}

/**
 * Put back what a bulk load that could not finish (a full disk, say) left set aside, as the next
 * open would: ingest does this before it tries again without a restart.
 */
export function repairUnfinishedLoad(db: Db): void {
  rebuildAfterLoad(db, restoreIndexes(db));
}

/**
 * Another connection to a journal openDb() has opened, for a worker thread (a bulk load's writes,
 * a rescan's reads): no migrations, and no index repair, which would undo a load's set-aside indexes.
 */
export function openWorkerDb(file: string, opts: { readonly?: boolean } = {}): Db {
  const db = configure(new Database(file, { fileMustExist: true, readonly: opts.readonly ?? false }));
  // A load appends without indexes and a rescan reads one index through: a small cache does, and
  // four workers' caches count toward the server's memory.
  db.pragma("cache_size = -4096");
  if ((db.pragma("user_version", { simple: true }) as number) !== SCHEMA_VERSION) {
    db.close();
    throw new JournalVersionError(`The journal ${file} is not at schema version ${SCHEMA_VERSION}.`);
  }
  return db;
}

/**
 * Run `fn`, writes that may as well wait for their next turn, only while no other connection is
 * writing: null (and nothing written) if one is. A worker's chunk (a load's rows, the full-text
 * fill and its segment merges) holds the write lock for seconds at a million messages on a busy
 * machine; waiting for it in SQLite's busy handler would hold the main thread, and every request,
 * that long, and past the timeout report the journal "locked by another process" when the other
 * writer is this server's own worker. A lock that stays is still reported by the writes that must
 * wait (file events, actions).
 */
export function unlessWriting<T>(db: Db, fn: () => T): T | null {
  db.pragma("busy_timeout = 0");
  try {
    return fn();
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith("SQLITE_BUSY")) return null;
    throw err;
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/**
 * Write one page and commit, changing nothing: throws the fault (a full disk, a read-only file, a
 * lock held elsewhere) that keeps the journal from being written, if any.
 */
export function probeWrite(db: Db): void {
  db.prepare("UPDATE meta SET value = value WHERE name = 'seq'").run();
}
