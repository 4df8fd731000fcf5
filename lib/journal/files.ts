import "server-only";
import type { Db } from "./db";
import type { JournaledFile } from "./entry-rows";

/** What a rescan compares to tell a file unchanged (see sameFile in lib/ingest/sync.ts). */
export interface FileIdentity {
  mtimeMs: number | null;
  size: number;
  ino: number | null;
}

/**
 * Rows a page: each page is one synchronous read on the main thread. Pages of 20,000 held a server
 * of 100,000 mixed messages for 130–320 ms at each rescan (event-loop delay, 2-core VM).
 */
const PAGE = 2_000;

/**
 * One page of a source's files on disk, in path order; answered from the covering index
 * messages_files (migrations 8 and 23), which holds one-message files (locator ''), the only ones
 * compared file by file (files of many entries have entry_files).
 */
export const FILE_IDENTITIES_SQL = `SELECT path, mtime_ms AS mtimeMs, size, ino FROM messages
  WHERE source = ? AND path IS NOT NULL AND locator = '' AND path > ? ORDER BY path LIMIT ${PAGE}`;

/**
 * Every file of `source` the journal believes is on disk, by path. Read in pages with `pause()`
 * between them: on the main thread, at a million files one read would hold the server for seconds.
 */
export function fileIdentities(db: Db, source: string, pause: () => Promise<void>): Promise<Map<string, FileIdentity>> {
  return byPathInPages<FileIdentity>(db, FILE_IDENTITIES_SQL, source, pause);
}

/** Rows of `sql` (a source and the path to go on after, a page of PAGE in path order) by path, `pause()` between pages. */
async function byPathInPages<T>(db: Db, sql: string, source: string, pause: () => Promise<void>): Promise<Map<string, T>> {
  const page = db.prepare(sql);
  const files = new Map<string, T>();
  for (let after = ""; ; ) {
    const rows = page.all(source, after) as ({ path: string } & T)[];
    for (const { path, ...facts } of rows) files.set(path, facts as T);
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return files;
    after = last.path;
    await pause();
  }
}

const ENTRY_FILE_COLUMNS = "path, size, mtime_ms AS mtimeMs, ino, consumed, head, reader";

/** How far each file of an entry source was read, and by which reader version, by path (read in pages, `pause()` between them). */
export function entryFiles(db: Db, source: string, pause: () => Promise<void>): Promise<Map<string, JournaledFile>> {
  return byPathInPages<JournaledFile>(db, `SELECT ${ENTRY_FILE_COLUMNS} FROM entry_files WHERE source = ? AND path > ? ORDER BY path LIMIT ${PAGE}`, source, pause);
}

/**
 * The same of `paths` alone, those the journal has: a file event's few files. Read for the whole
 * source, each event on a queue of 20,000 IGNITE v2 files held the server for 130–320 ms.
 */
export function entryFilesAt(db: Db, source: string, paths: readonly string[]): Map<string, JournaledFile> {
  const rows = db
    .prepare(`SELECT ${ENTRY_FILE_COLUMNS} FROM entry_files WHERE source = ? AND path IN (SELECT value FROM json_each(?))`)
    .all(source, JSON.stringify(paths)) as ({ path: string } & JournaledFile)[];
  return new Map(rows.map(({ path, ...facts }) => [path, facts]));
}
