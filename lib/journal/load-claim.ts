import "server-only";
import type { PageLoading } from "@/lib/model";
import type { Db } from "./db";

// While a first scan loads newest first (lib/ingest/newest-first.ts), what it has journaled so far:
// kept in the journal, as the API that reports it may run in another module instance than ingest.

const claimName = (source: string) => `complete_after:${source}`;

/** Every message of `source` sorted after `ms` is journaled (null: nothing claimed; the scan is not newest first or has not got far). */
export function setLoadClaim(db: Db, source: string, ms: number | null): void {
  if (ms === null) db.prepare("DELETE FROM meta WHERE name = ?").run(claimName(source));
  else db.prepare("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(claimName(source), ms);
}

/** How far the sources still being scanned are, or undefined when none is (every answer is then over the whole tree). */
export function loadingNow(db: Db): PageLoading | undefined {
  const rows = db
    .prepare(`SELECT s.files, s.total, m.value AS claim FROM sources s LEFT JOIN meta m ON m.name = 'complete_after:' || s.id
      WHERE s.done = 0 AND s.error IS NULL`)
    .all() as { files: number; total: number; claim: number | null }[];
  if (rows.length === 0) return undefined;
  const claims = rows.map((r) => r.claim);
  const after = claims.every((c): c is number => c !== null) ? Math.max(...claims) : null;
  return {
    loaded: rows.reduce((n, r) => n + r.files, 0),
    total: rows.reduce((n, r) => n + r.total, 0),
    // Past the range of a Date: everything is loaded (but the scan's last steps).
    completeAfter: after === null ? null : Number.isFinite(new Date(after).getTime()) ? new Date(after).toISOString() : new Date(-8.64e15).toISOString(),
  };
}

/**
 * Whether `rows` messages of `sources` are sorted after `ms`. With every message of theirs sorted
 * after `ms` journaled (their weakest claim), their newest `rows` are then all in.
 */
export function newestPageAfter(db: Db, sources: readonly string[], ms: number, rows: number): boolean {
  const held = db
    .prepare("SELECT count(*) FROM (SELECT 1 FROM messages WHERE sort_ms > ? AND source IN (SELECT value FROM json_each(?)) LIMIT ?)")
    .pluck()
    .get(ms, JSON.stringify(sources), rows) as number;
  return held >= rows;
}
