import "server-only";
import path from "node:path";
import { getConfig } from "@/lib/server/config";
import { openDb, type Db } from "./db";
import { clearJournalFault, journalFaultKind, reportJournalFault } from "./faults";
import { setAside } from "./set-aside";
import { JournalWriter } from "./writer";

export interface Journal {
  file: string;
  db: Db;
  writer: JournalWriter;
}

// One connection per journal file for the whole process: route handlers and instrumentation
// may be bundled apart, so the cache lives on globalThis rather than in module scope.
const registry = globalThis as typeof globalThis & { __mailroomJournals?: Map<string, Journal> };

export function openJournal(file: string): Journal {
  registry.__mailroomJournals ??= new Map();
  let j = registry.__mailroomJournals.get(file);
  if (!j) {
    const db = openOrSetAside(file);
    j = { file, db, writer: new JournalWriter(db) };
    registry.__mailroomJournals.set(file, j);
  }
  return j;
}

/**
 * Open a journal; one SQLite cannot read as a database (its header or schema damaged, cut short) is
 * moved aside, never deleted or overwritten, and a new one is begun, which ingest fills from the
 * tree. Any other failure is recorded as the journal's fault (shown on every page) and thrown: the
 * next call tries again.
 */
function openOrSetAside(file: string, movedAside = false): Db {
  try {
    const db = openDb(file);
    clearJournalFault(file, true);
    return db;
  } catch (err) {
    // A new journal that cannot be opened either is not moved aside again: reported, as is.
    if (journalFaultKind(err) !== "corrupt" || movedAside) {
      reportJournalFault(file, err);
      throw err;
    }
    let aside: string;
    try {
      aside = setAside(file);
    } catch (moveErr) {
      // Left where it is, and tried again at the next call.
      const why = moveErr instanceof Error ? moveErr.message : String(moveErr);
      reportJournalFault(
        file,
        err,
        `Mailroom could not move it aside (${why}). Make ${path.dirname(file)} writable, or move ${file} away yourself (keep it to inspect); Mailroom then builds a new journal from the workspace tree.`,
      );
      throw err;
    }
    console.error(`[mailroom] the journal ${file} could not be opened (${err instanceof Error ? err.message : String(err)}); moved it aside to ${aside} and began a new one`);
    return openOrSetAside(file, true);
  }
}

/**
 * Open a journal's connection again, in place, so every holder of the Journal uses the new one: a
 * connection SQLite opened read-only (the file could not be written then) stays read-only after.
 * If the open fails, the old connection stays and the error is thrown.
 */
export function reopenJournal(j: Journal): void {
  const db = openOrSetAside(j.file);
  j.db.close();
  j.db = db;
  j.writer = new JournalWriter(db);
}

/** Whether SQLite finds the journal damaged (a quick check: every page read, no index compared with its table). */
function isDamaged(db: Db): boolean {
  try {
    const rows = db.pragma("quick_check(1)") as { quick_check: string }[];
    return rows[0]?.quick_check !== "ok";
  } catch (err) {
    if (journalFaultKind(err) === "corrupt") return true;
    throw err;
  }
}

/**
 * A journal found damaged while in use (SQLITE_CORRUPT from a query) is checked; if damaged it is
 * closed, moved aside as one that cannot be opened is, and a new one begun in place. Returns the
 * copy moved aside, or null when the check found nothing wrong.
 */
export function replaceIfDamaged(j: Journal): string | null {
  if (!isDamaged(j.db)) return null;
  j.db.close();
  let aside: string;
  try {
    aside = setAside(j.file);
  } finally {
    // Open again in any case (a new journal, or the damaged one when it could not be moved): never left closed.
    j.db = openOrSetAside(j.file, true);
    j.writer = new JournalWriter(j.db);
  }
  console.error(`[mailroom] the journal ${j.file} was found damaged; moved it aside to ${aside} and began a new one`);
  return aside;
}

/** The journal of the configured workspaces. */
export function getJournal(): Journal {
  return openJournal(getConfig().journalFile);
}

/** Close every open journal (tests, shutdown). */
export function closeJournals(): void {
  for (const j of registry.__mailroomJournals?.values() ?? []) j.db.close();
  registry.__mailroomJournals?.clear();
}
