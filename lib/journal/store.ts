import "server-only";
import { getConfig } from "@/lib/server/config";
import { openDb, type Db } from "./db";
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
    const db = openDb(file);
    j = { file, db, writer: new JournalWriter(db) };
    registry.__mailroomJournals.set(file, j);
  }
  return j;
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
