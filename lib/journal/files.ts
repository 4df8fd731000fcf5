import "server-only";
import type { Db } from "./db";

/** What a rescan compares to tell a file unchanged (see sameFile in lib/ingest/sync.ts). */
export interface FileIdentity {
  mtimeMs: number | null;
  size: number;
  ino: number | null;
}

/** Read by a rescan; answered from the covering index messages_files (migration 8), not the table. */
export const FILE_IDENTITIES_SQL = "SELECT path, mtime_ms AS mtimeMs, size, ino FROM messages WHERE source = ? AND path IS NOT NULL";

/** Every file of `source` the journal believes is on disk, by path. */
export function fileIdentities(db: Db, source: string): Map<string, FileIdentity> {
  const rows = db.prepare(FILE_IDENTITIES_SQL);
  const files = new Map<string, FileIdentity>();
  for (const { path, ...identity } of rows.iterate(source) as Iterable<FileIdentity & { path: string }>) files.set(path, identity);
  return files;
}
