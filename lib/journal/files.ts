import "server-only";
import type { Db } from "./db";

/** What a rescan compares to tell a file unchanged (see sameFile in lib/ingest/sync.ts). */
export interface FileIdentity {
  mtimeMs: number | null;
  size: number;
  ino: number | null;
}

const PAGE = 20_000;

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
export async function fileIdentities(db: Db, source: string, pause: () => Promise<void>): Promise<Map<string, FileIdentity>> {
  const page = db.prepare(FILE_IDENTITIES_SQL);
  const files = new Map<string, FileIdentity>();
  for (let after = ""; ; ) {
    const rows = page.all(source, after) as (FileIdentity & { path: string })[];
    for (const { path, ...identity } of rows) files.set(path, identity);
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return files;
    after = last.path;
    await pause();
  }
}
