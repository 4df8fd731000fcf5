import "server-only";
import type { Statement } from "better-sqlite3";

/**
 * Flag every present file of `source` that shares `messageId` with another present file, and clear
 * the flag of one that no longer does; each change takes a new seq (so polls see it) and a flag an
 * event at `atMs`. The writer's rule, also run by a bulk load as each chunk is committed (bulk.ts).
 */
export function refreshDuplicates(sql: (text: string) => Statement, source: string, messageId: string | null, atMs: number): void {
  if (!messageId) return;
  const rows = sql("SELECT key, path, duplicate FROM messages WHERE source = ? AND message_id = ?")
    .all(source, messageId) as { key: string; path: string | null; duplicate: number }[];
  const present = rows.filter((r) => r.path !== null).length;
  for (const r of rows) {
    const dup = r.path !== null && present > 1 ? 1 : 0;
    if (dup === r.duplicate) continue;
    const { value: seq } = sql("UPDATE meta SET value = value + 1 WHERE name = 'seq' RETURNING value").get() as { value: number };
    sql("UPDATE messages SET duplicate = ?, seq = ? WHERE key = ?").run(dup, seq, r.key);
    if (dup) sql("INSERT INTO events (key, at_ms, kind, detail, from_status) VALUES (?, ?, 'duplicate', ?, NULL)").run(r.key, atMs, `another file holds the same Message-ID ${messageId}`);
  }
}
