import "server-only";
import type { Db } from "./db";

// Full-text search over bodies: a contentless FTS5 table with the trigram tokenizer (substring
// matches, any script — Japanese bodies have no spaces to split on). It is filled after the
// first scan, in chunks, so listing never waits for it; triggers keep it current from then on.

const CHUNK_ROWS = 2000;

/** The shortest term the trigram index can answer; shorter ones fall back to a scan. */
export const MIN_INDEXED_TERM = 3;

export function fullTextReady(db: Db): boolean {
  const row = db.prepare("SELECT value FROM meta WHERE name = 'fts_ready'").get() as { value: number } | undefined;
  return row?.value === 1;
}

const TRIGGERS = `
  CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, body) VALUES (new.id, new.body);
  END;
  CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF body ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    INSERT INTO messages_fts (rowid, body) VALUES (new.id, new.body);
  END;
  CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
  END;
`;

/**
 * Index every body once. Triggers go in first, so rows changed meanwhile are indexed by them;
 * each chunk then re-derives its id range from the current rows, which is right either way.
 */
export async function buildFullText(db: Db, yieldToEventLoop: () => Promise<void>): Promise<void> {
  if (fullTextReady(db)) return;
  db.exec(TRIGGERS);
  const maxId = (db.prepare("SELECT coalesce(max(id), 0) AS m FROM messages").get() as { m: number }).m;
  const clear = db.prepare("DELETE FROM messages_fts WHERE rowid BETWEEN ? AND ?");
  const fill = db.prepare("INSERT INTO messages_fts (rowid, body) SELECT id, body FROM messages WHERE id BETWEEN ? AND ?");
  const chunk = db.transaction((from: number, to: number) => {
    clear.run(from, to);
    fill.run(from, to);
  });
  for (let from = 1; from <= maxId; from += CHUNK_ROWS) {
    chunk(from, Math.min(maxId, from + CHUNK_ROWS - 1));
    await yieldToEventLoop();
  }
  db.prepare("INSERT INTO meta (name, value) VALUES ('fts_ready', 1) ON CONFLICT (name) DO UPDATE SET value = 1").run();
}

/** An FTS5 query for one literal term: a quoted phrase, so operators in user text stay text. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
