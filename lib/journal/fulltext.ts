import "server-only";
import { refreshStatistics, type Db } from "./db";

// Full-text search over bodies: a contentless FTS5 table with the trigram tokenizer (substring
// matches, any script — Japanese bodies have no spaces to split on). It is filled after the
// first scan, in chunks, so listing never waits for it; triggers keep it current from then on.

/** On the main thread: each chunk holds the event loop (and the write turn) for about 20 ms. */
const CHUNK_ROWS = 2000;

/**
 * Body bytes in one chunk, whatever its rows: trigrams of a 4 MB body took about 0.4 s to index
 * (the hostile bench: five of them in one chunk held requests for 2.3 s). A bigger body is a chunk alone.
 */
const CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * On a worker thread a chunk only holds the write turn, and can be bigger. FTS5 writes its pending
 * terms as a new segment at every commit and whenever they outgrow its hash (1 MiB by default);
 * 10,000-row chunks with an 8 MiB hash write a fifth of the segments: a 99,019-message journal
 * filled in 0.61 s instead of 0.86 s. Bigger chunks and hashes gained nothing more.
 */
export const OFF_THREAD_CHUNK_ROWS = 10_000;
const FILL_HASHSIZE = 8 * 1024 * 1024;

/** FTS5's own defaults: how many segments of a level it merges as rows are written, and its hash's size. */
export const DEFAULT_AUTOMERGE = 4;
export const DEFAULT_HASHSIZE = 1024 * 1024;

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

/** Index the bodies of messages `fromId` to `toId` not indexed yet: one chunk of the fill, on any connection. */
export function fillFullTextChunk(db: Db, fromId: number, toId: number): void {
  db.prepare(`INSERT INTO messages_fts (rowid, body) SELECT id, body FROM messages m
    WHERE id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM messages_fts_docsize d WHERE d.id = m.id)`).run(fromId, toId);
}

/**
 * Index every body once. Triggers go in first, so rows changed meanwhile are indexed by them, and
 * the fill skips those (FTS5 keeps one docsize row per indexed row). Skipping, not a range DELETE
 * before each chunk: a contentless index answers a rowid range by walking itself, so those
 * deletes made a million-message build quadratic (78 s after listing; 17 s without them).
 * `fillChunk` runs a chunk elsewhere (a worker thread's connection); by default it runs here.
 */
export async function buildFullText(
  db: Db,
  yieldToEventLoop: () => Promise<void>,
  chunkRows = CHUNK_ROWS,
  fillChunk?: (fromId: number, toId: number) => Promise<void>,
): Promise<void> {
  // Here, a chunk holds the event loop, so it is bounded by bytes too; elsewhere only the write turn.
  const fill = fillChunk ?? (async (from: number, to: number) => fillFullTextChunk(db, from, to));
  const maxBytes = fillChunk ? Infinity : CHUNK_BYTES;
  if (fullTextReady(db)) return;
  db.exec(TRIGGERS);
  const maxId = (db.prepare("SELECT coalesce(max(id), 0) AS m FROM messages").get() as { m: number }).m;
  // FTS5 merges segments as each chunk commits; deferring that to its crisis merges made a 100k
  // fill a quarter faster and left queries as fast. Back to the defaults after, also when the fill
  // fails; a process killed mid-fill leaves fts_ready unset, so the next start's build restores them.
  setFtsOptions(db, 0, FILL_HASHSIZE);
  try {
    const sizes = db.prepare(`SELECT id, length(CAST(body AS BLOB)) AS bytes FROM messages WHERE id >= ? ORDER BY id LIMIT ?`);
    for (let from = 1; from <= maxId; ) {
      let to = Math.min(maxId, from + chunkRows - 1);
      let bytes = 0;
      const rows = maxBytes === Infinity ? [] : (sizes.iterate(from, chunkRows) as Iterable<{ id: number; bytes: number }>);
      for (const r of rows) {
        if (bytes > 0 && bytes + r.bytes > maxBytes) {
          to = r.id - 1;
          break;
        }
        bytes += r.bytes;
      }
      await fill(from, to);
      await yieldToEventLoop();
      from = to + 1;
    }
  } finally {
    setFtsOptions(db, DEFAULT_AUTOMERGE, DEFAULT_HASHSIZE);
  }
  db.prepare("INSERT INTO meta (name, value) VALUES ('fts_ready', 1) ON CONFLICT (name) DO UPDATE SET value = 1").run();
  // A start analyzes the journal after its first scan, before this fill: the index's own tables
  // were then near empty ("2 rows"), so FTS5's range statements on them scanned the whole index
  // each time a write merged its segments. A 100 MB channel's appends read 73 MB of the journal per
  // 1,000 instead of 36, and cost 0.38 CPU-seconds instead of 0.31 (scripts/bench-append.ts). The
  // tables that grew tenfold since (these) are analyzed again, in ~40 ms at 70,000 messages.
  refreshStatistics(db);
}

function setFtsOptions(db: Db, automerge: number, hashsize: number): void {
  db.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', ${automerge}), ('hashsize', ${hashsize})`);
}

/** An FTS5 query for one literal term: a quoted phrase, so operators in user text stay text. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
