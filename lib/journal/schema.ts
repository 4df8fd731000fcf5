// Versioned migrations: index i brings a journal from version i to i + 1 (PRAGMA user_version).
// Never edit a shipped migration; add a new one, so journals written by older versions open.

/** The trigger-kept tables filled from the messages: by migrations 9 and 11, and by a load's crash repair (load-triggers.ts). */
export const FILL_AGENT_COUNTS_SQL = `INSERT INTO agent_counts (source, agent, dead_letter, status, n, stuck, last_ms)
    SELECT source, agent, folder = 'dead_letter', status, COUNT(*), SUM(stuck), MAX(updated_ms) FROM messages GROUP BY 1, 2, 3, 4;`;
export const FILL_THREAD_LAST_SQL = "INSERT INTO thread_last SELECT thread_key, max(sort_ms) FROM messages WHERE thread_key IS NOT NULL GROUP BY thread_key;";
/** The name a message without a type is counted under (migration 22's hour_type_counts; charts.ts). */
export const NO_TYPE = "(no type)";
export const FILL_HOUR_COUNTS_SQL = `INSERT INTO hour_agent_counts SELECT sort_ms / 3600000, agent, COUNT(*) FROM messages WHERE folder != 'dead_letter' GROUP BY 1, 2;
  INSERT INTO hour_type_counts SELECT sort_ms / 3600000, coalesce(type, '${NO_TYPE}'), COUNT(*) FROM messages WHERE folder != 'dead_letter' GROUP BY 1, 2;`;

/**
 * An event that made a message fail (lib/journal/charts.ts failures): a dead letter written, or a
 * status event or move into a failed status (the catalogs' failed statuses as of migration 20).
 * Migration 20 indexes exactly this expression, and the chart query must repeat it word for word
 * for SQLite to use that index: never edit it; a new failed status needs a new migration.
 */
export const FAILURE_EVENT_SQL = `(kind = 'dead-lettered' OR (kind IN ('status', 'moved') AND (rtrim(detail, ')') GLOB '*→ dead'
  OR rtrim(detail, ')') GLOB '*→ error' OR rtrim(detail, ')') GLOB '*→ invalid' OR rtrim(detail, ')') GLOB '*→ failed')))`;
/** The failed statuses FAILURE_EVENT_SQL knows. */
export const FAILURE_EVENT_STATUSES = ["dead", "error", "invalid", "failed"] as const;

export const MIGRATIONS: readonly string[] = [
  // 1: messages, their lifecycle events, sources, and the change counter.
  `
  CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  INSERT INTO meta (name, value) VALUES ('seq', 0);

  CREATE TABLE sources (
    id TEXT PRIMARY KEY,
    protocol TEXT NOT NULL,
    root TEXT NOT NULL,
    agents TEXT NOT NULL DEFAULT '[]',
    files INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    error TEXT
  );

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    protocol TEXT NOT NULL,
    message_id TEXT,
    from_name TEXT,
    to_list TEXT NOT NULL DEFAULT '[]',
    cc_list TEXT NOT NULL DEFAULT '[]',
    type TEXT,
    priority TEXT,
    thread_id TEXT,
    in_reply_to TEXT,
    correlation_id TEXT,
    repository TEXT,
    issue TEXT,
    date TEXT,
    sort_ms INTEGER NOT NULL,
    agent TEXT NOT NULL,
    folder TEXT NOT NULL,
    path TEXT,
    last_path TEXT NOT NULL,
    status TEXT NOT NULL,
    raw_status TEXT,
    stuck INTEGER NOT NULL DEFAULT 0,
    retry_count INTEGER NOT NULL DEFAULT 0,
    problems TEXT NOT NULL DEFAULT '[]',
    duplicate INTEGER NOT NULL DEFAULT 0,
    dead_letter_of TEXT,
    preview TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    raw BLOB,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ms INTEGER,
    ino INTEGER,
    updated_ms INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX messages_path ON messages (source, path) WHERE path IS NOT NULL;
  CREATE INDEX messages_seq ON messages (seq);
  CREATE INDEX messages_sort ON messages (sort_ms DESC, key DESC);
  CREATE INDEX messages_message_id ON messages (message_id);

  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
  );
  CREATE INDEX events_key ON events (key, id);
  `,
  // 2: retry backoff and per-agent / per-status lookups for the overview and filters.
  `
  ALTER TABLE messages ADD COLUMN next_retry_at TEXT;
  CREATE INDEX messages_agent_status ON messages (agent, status);
  CREATE INDEX messages_status ON messages (status, mtime_ms);
  CREATE INDEX messages_dead_letter_of ON messages (dead_letter_of) WHERE dead_letter_of IS NOT NULL;
  `,
  // 3: threads. A message's task id (read from its body at write time, see task-id.ts) and its
  // thread (thread_key, kept current by thread-keys.ts; see thread-sql.ts for its form), both
  // filled here for the messages already journaled.
  `
  ALTER TABLE messages ADD COLUMN task_id TEXT;
  ALTER TABLE messages ADD COLUMN thread_key TEXT;
  UPDATE messages SET task_id = t.v FROM (
    SELECT id, CASE WHEN lower(v) IN ('', 'unknown', 'null', '~', 'none', 'n/a') THEN NULL ELSE substr(v, 1, 200) END AS v
    FROM (
      SELECT id, trim(CASE
          WHEN length(r) >= 2 AND substr(r, 1, 1) = '"' AND substr(r, -1) = '"' THEN substr(r, 2, length(r) - 2)
          WHEN length(r) >= 2 AND substr(r, 1, 1) = char(39) AND substr(r, -1) = char(39) THEN substr(r, 2, length(r) - 2)
          ELSE r END) AS v
      FROM (
        SELECT id, trim(CASE
            WHEN json_valid(body) AND json_type(body) = 'object'
              THEN coalesce(CAST(coalesce(json_extract(body, '$.task_id'), json_extract(body, '$.taskId')) AS TEXT), '')
            WHEN instr(rest, char(10)) > 0 THEN substr(rest, 1, instr(rest, char(10)) - 1)
            ELSE rest END, ' ' || char(9) || char(13)) AS r
        FROM (
          SELECT id, body, CASE WHEN instr(char(10) || body, char(10) || 'task_id:') > 0
            THEN substr(char(10) || body, instr(char(10) || body, char(10) || 'task_id:') + 9) ELSE '' END AS rest
          FROM messages WHERE instr(body, 'task_id') > 0 OR instr(body, 'taskId') > 0
        )
      )
    )
  ) AS t WHERE messages.id = t.id;
  CREATE INDEX messages_thread_id ON messages (thread_id) WHERE thread_id IS NOT NULL;
  CREATE INDEX messages_in_reply_to ON messages (in_reply_to) WHERE in_reply_to IS NOT NULL;
  WITH RECURSIVE
    down(key, mid, g) AS (
      SELECT c.key, c.message_id, COALESCE((CASE WHEN p.thread_id IS NOT NULL THEN 'h' || char(31) || p.thread_id
        WHEN p.repository IS NOT NULL AND p.issue IS NOT NULL THEN 'i' || char(31) || p.repository || char(31) || p.issue
        WHEN p.task_id IS NOT NULL THEN 't' || char(31) || p.task_id END), (CASE WHEN c.thread_id IS NOT NULL THEN 'h' || char(31) || c.thread_id
        WHEN c.repository IS NOT NULL AND c.issue IS NOT NULL THEN 'i' || char(31) || c.repository || char(31) || c.issue
        WHEN c.task_id IS NOT NULL THEN 't' || char(31) || c.task_id END))
        FROM messages c LEFT JOIN messages p ON p.key = c.dead_letter_of
        WHERE c.thread_id IS NULL AND c.dead_letter_of IS NOT NULL
          AND (p.key IS NULL OR p.thread_id IS NOT NULL OR (p.dead_letter_of IS NULL AND p.in_reply_to IS NULL))
      UNION
      SELECT c.key, c.message_id, COALESCE((CASE WHEN p.thread_id IS NOT NULL THEN 'h' || char(31) || p.thread_id
        WHEN p.repository IS NOT NULL AND p.issue IS NOT NULL THEN 'i' || char(31) || p.repository || char(31) || p.issue
        WHEN p.task_id IS NOT NULL THEN 't' || char(31) || p.task_id END), (CASE WHEN c.thread_id IS NOT NULL THEN 'h' || char(31) || c.thread_id
        WHEN c.repository IS NOT NULL AND c.issue IS NOT NULL THEN 'i' || char(31) || c.repository || char(31) || c.issue
        WHEN c.task_id IS NOT NULL THEN 't' || char(31) || c.task_id END))
        FROM messages c LEFT JOIN messages p ON p.message_id = c.in_reply_to
        WHERE c.thread_id IS NULL AND c.dead_letter_of IS NULL AND c.in_reply_to IS NOT NULL
          AND (p.key IS NULL OR p.thread_id IS NOT NULL OR (p.dead_letter_of IS NULL AND p.in_reply_to IS NULL))
      UNION
      SELECT c.key, c.message_id, COALESCE(d.g, (CASE WHEN c.thread_id IS NOT NULL THEN 'h' || char(31) || c.thread_id
        WHEN c.repository IS NOT NULL AND c.issue IS NOT NULL THEN 'i' || char(31) || c.repository || char(31) || c.issue
        WHEN c.task_id IS NOT NULL THEN 't' || char(31) || c.task_id END))
        FROM down d JOIN messages c ON c.dead_letter_of = d.key WHERE c.thread_id IS NULL
      UNION
      SELECT c.key, c.message_id, COALESCE(d.g, (CASE WHEN c.thread_id IS NOT NULL THEN 'h' || char(31) || c.thread_id
        WHEN c.repository IS NOT NULL AND c.issue IS NOT NULL THEN 'i' || char(31) || c.repository || char(31) || c.issue
        WHEN c.task_id IS NOT NULL THEN 't' || char(31) || c.task_id END))
        FROM down d JOIN messages c ON c.in_reply_to = d.mid
        WHERE d.mid IS NOT NULL AND c.thread_id IS NULL AND c.dead_letter_of IS NULL
    ),
    inherited(key, g) AS (SELECT key, min(g) FROM down WHERE g IS NOT NULL GROUP BY key),
    grouped(id, g) AS (SELECT m.id, COALESCE(i.g, (CASE WHEN m.thread_id IS NOT NULL THEN 'h' || char(31) || m.thread_id
        WHEN m.repository IS NOT NULL AND m.issue IS NOT NULL THEN 'i' || char(31) || m.repository || char(31) || m.issue
        WHEN m.task_id IS NOT NULL THEN 't' || char(31) || m.task_id END)) FROM messages m LEFT JOIN inherited i ON i.key = m.key)
  UPDATE messages SET thread_key = grouped.g FROM grouped WHERE messages.id = grouped.id AND grouped.g IS NOT NULL;
  CREATE INDEX messages_thread_key ON messages (thread_key, sort_ms) WHERE thread_key IS NOT NULL;
  `,
  // 4: full-text search. Contentless (bodies are already in messages) with deletes by rowid;
  // filled after the first scan and kept current by triggers (see fulltext.ts).
  `
  CREATE VIRTUAL TABLE messages_fts USING fts5 (body, content = '', contentless_delete = 1, tokenize = 'trigram');
  INSERT INTO meta (name, value) VALUES ('fts_ready', 0);
  `,
  // 5: lookups that otherwise scan the table at 100k: has:problem, issue:, and the stuck sweep (every second).
  `
  CREATE INDEX messages_with_problems ON messages (sort_ms DESC, key DESC) WHERE problems != '[]';
  CREATE INDEX messages_issue ON messages (issue, sort_ms) WHERE issue IS NOT NULL;
  CREATE INDEX messages_stuck ON messages (key) WHERE stuck = 1;
  `,
  // 6: indexes set aside while a first scan bulk-loads (see deferred-indexes.ts); a crash mid-load
  // leaves them here, and the next open builds them.
  `
  CREATE TABLE deferred_indexes (name TEXT PRIMARY KEY, sql TEXT NOT NULL);
  `,
  // 7: an agent's timeline (its own page, agent:) and is:stuck walk an index in page order; at a
  // million messages sorting an agent's ~70,000 rows cost 40 ms, and finding the stuck ones 60.
  `
  CREATE INDEX messages_agent_sort ON messages (agent, sort_ms DESC, key DESC);
  CREATE INDEX messages_stuck_sort ON messages (sort_ms DESC, key DESC) WHERE stuck = 1;
  `,
  // 8: a periodic rescan compares every file's identity (path, mtime, size, inode) with the tree
  // (see files.ts). From an index holding them it reads ~100 MB at a million messages instead of
  // the 1.5 GB table, which also pushed the rest of the journal out of the page cache.
  `
  CREATE INDEX messages_files ON messages (source, path, mtime_ms, size, ino) WHERE path IS NOT NULL;
  `,
  // 9: the overview's counts per agent and status, kept by triggers as messages are written
  // (see stats.ts): summing them from the table read all of it, 85 ms at 100,000 messages, on
  // every change. last_ms is the latest write to a message while it was in that group.
  `
  CREATE TABLE agent_counts (
    source TEXT NOT NULL,
    agent TEXT NOT NULL,
    dead_letter INTEGER NOT NULL,
    status TEXT NOT NULL,
    n INTEGER NOT NULL,
    stuck INTEGER NOT NULL,
    last_ms INTEGER,
    PRIMARY KEY (source, agent, dead_letter, status)
  ) WITHOUT ROWID;
  ${FILL_AGENT_COUNTS_SQL}
  CREATE TRIGGER agent_counts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO agent_counts VALUES (new.source, new.agent, new.folder = 'dead_letter', new.status, 1, new.stuck, new.updated_ms)
      ON CONFLICT DO UPDATE SET n = n + 1, stuck = stuck + excluded.stuck, last_ms = max(coalesce(last_ms, 0), excluded.last_ms);
  END;
  CREATE TRIGGER agent_counts_delete AFTER DELETE ON messages BEGIN
    UPDATE agent_counts SET n = n - 1, stuck = stuck - old.stuck
      WHERE source = old.source AND agent = old.agent AND dead_letter = (old.folder = 'dead_letter') AND status = old.status;
  END;
  CREATE TRIGGER agent_counts_update AFTER UPDATE OF source, agent, folder, status, stuck, updated_ms ON messages BEGIN
    UPDATE agent_counts SET n = n - 1, stuck = stuck - old.stuck
      WHERE source = old.source AND agent = old.agent AND dead_letter = (old.folder = 'dead_letter') AND status = old.status;
    INSERT INTO agent_counts VALUES (new.source, new.agent, new.folder = 'dead_letter', new.status, 1, new.stuck, new.updated_ms)
      ON CONFLICT DO UPDATE SET n = n + 1, stuck = stuck + excluded.stuck, last_ms = max(coalesce(last_ms, 0), excluded.last_ms);
  END;
  `,
  // 10: the dead letters still on disk, newest first, for the dead-letter page (polled): finding
  // them through messages_sort walked all 100,000 messages (55 ms) for 1,000 dead letters.
  `
  CREATE INDEX messages_dead_letters ON messages (sort_ms DESC, key DESC) WHERE folder = 'dead_letter' AND path IS NOT NULL;
  `,
  // 11: every thread's last activity, kept by triggers, for the thread list (polled): grouping the
  // messages by thread_key for it walked the whole index (20 ms at 100,000 messages) on every change.
  // A message leaving a thread (moved, deleted) sends its old group back to the index for its new
  // maximum only when it held it.
  `
  CREATE TABLE thread_last (thread_key TEXT PRIMARY KEY, last_ms INTEGER NOT NULL) WITHOUT ROWID;
  ${FILL_THREAD_LAST_SQL}
  CREATE TRIGGER thread_last_insert AFTER INSERT ON messages WHEN new.thread_key IS NOT NULL BEGIN
    INSERT INTO thread_last VALUES (new.thread_key, new.sort_ms) ON CONFLICT DO UPDATE SET last_ms = max(last_ms, excluded.last_ms);
  END;
  CREATE TRIGGER thread_last_delete AFTER DELETE ON messages WHEN old.thread_key IS NOT NULL BEGIN
    DELETE FROM thread_last WHERE thread_key = old.thread_key AND NOT EXISTS (SELECT 1 FROM messages WHERE thread_key = old.thread_key);
    UPDATE thread_last SET last_ms = (SELECT max(sort_ms) FROM messages WHERE thread_key = old.thread_key)
      WHERE thread_key = old.thread_key AND last_ms = old.sort_ms;
  END;
  CREATE TRIGGER thread_last_update AFTER UPDATE OF thread_key, sort_ms ON messages
    WHEN old.thread_key IS NOT new.thread_key OR old.sort_ms != new.sort_ms BEGIN
    DELETE FROM thread_last WHERE thread_key = old.thread_key AND NOT EXISTS (SELECT 1 FROM messages WHERE thread_key = old.thread_key);
    UPDATE thread_last SET last_ms = (SELECT max(sort_ms) FROM messages WHERE thread_key = old.thread_key)
      WHERE thread_key = old.thread_key AND last_ms = old.sort_ms;
    INSERT INTO thread_last SELECT new.thread_key, new.sort_ms WHERE new.thread_key IS NOT NULL
      ON CONFLICT DO UPDATE SET last_ms = max(last_ms, excluded.last_ms);
  END;
  `,
  // 12: status:… newest first. Through the status index the planner sorted every match (213 ms for
  // status:delivered, 91,000 of 100,000 messages); through the sort index it walked past every
  // non-match (47 ms for a status nobody has). This one serves both, stopping at the page's end.
  `
  CREATE INDEX messages_status_sort ON messages (status, sort_ms DESC, key DESC);
  `,
  // 13: the stuck sweep's candidates, processing and not yet stuck, by age. Every second the sweep
  // found them through the status index, and read every processing row to drop the stuck ones (at
  // a million messages with 20,000 stuck, most of the sweep's 140 ms). Here they are the index.
  `
  CREATE INDEX messages_processing_unstuck ON messages (mtime_ms) WHERE status = 'processing' AND stuck = 0 AND path IS NOT NULL;
  `,
  // 14: what retention may prune, oldest first. After every rescan it found them through the
  // status index, reading every completed message: with 820,000 of them 0.26 s to prune nothing by
  // age, 1.8 s (a sort of them all) by count.
  `
  CREATE INDEX messages_prunable ON messages (updated_ms, key) WHERE status = 'completed' AND path IS NULL;
  `,
  // 15: a message's bytes in their own table, keyed by the message's id. They were half of every
  // messages row, and every index build and scan read past them: a first scan of 99,019 files built
  // its indexes in 835–943 ms instead of 1,029–1,053 ms. Only the detail view reads them. Dropping
  // the column rewrites each row where it is, so a journal upgraded here keeps its pages (half
  // full) and grows by the bytes copied; a new journal gets the narrow table.
  `
  CREATE TABLE message_raw (id INTEGER PRIMARY KEY, raw BLOB NOT NULL);
  INSERT INTO message_raw (id, raw) SELECT id, raw FROM messages WHERE raw IS NOT NULL;
  ALTER TABLE messages DROP COLUMN raw;
  CREATE TRIGGER message_raw_delete AFTER DELETE ON messages BEGIN
    DELETE FROM message_raw WHERE id = old.id;
  END;
  `,
  // 16: a dead message whose file is gone and whose dead letters are all archived (an operator
  // discarded them) is discarded, as the writer now keeps it (writer.ts settleHeldStatus) and as a
  // fresh journal reads the same files; before, it stayed dead. One change for pollers.
  `
  CREATE TEMP TABLE held_discarded AS SELECT key FROM messages m WHERE m.status = 'dead' AND m.path IS NULL
    AND EXISTS (SELECT 1 FROM messages d WHERE d.dead_letter_of = m.key AND d.folder = 'archive' AND d.path IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM messages d WHERE d.dead_letter_of = m.key AND d.folder = 'dead_letter' AND d.path IS NOT NULL);
  UPDATE meta SET value = value + 1 WHERE name = 'seq';
  UPDATE messages SET status = 'discarded', updated_ms = CAST(unixepoch('subsec') * 1000 AS INTEGER),
    seq = (SELECT value FROM meta WHERE name = 'seq') WHERE key IN (SELECT key FROM held_discarded);
  INSERT INTO events (key, at_ms, kind, detail)
    SELECT key, CAST(unixepoch('subsec') * 1000 AS INTEGER), 'status', 'dead → discarded' FROM held_discarded;
  DROP TABLE held_discarded;
  `,
  // 17: a file too big to keep (over 8 MiB) keeps its head, whose headers then outlive the file;
  // head_only says these bytes are not the whole file (never offered as its download).
  `
  ALTER TABLE message_raw ADD COLUMN head_only INTEGER NOT NULL DEFAULT 0;
  `,
  // 18: a status event keeps the status it left as data, so a burst of rewrites folded into one
  // step (writer.ts rewriteEvent) starts where the burst did without reading it back from `detail`.
  `
  ALTER TABLE events ADD COLUMN from_status TEXT;
  `,
  // 19: many entries per file (wave 2: a shogun inbox, a JSONL channel). A message is identified by
  // (source, path, locator); IGNITE's one-message files keep locator ''. entry_files remembers how
  // far each file was read, so an append is read from there (O(appended bytes)); entries keeps
  // each entry as its adapter read it, so statuses that depend on other entries (an ack, an
  // answer) are settled again from the entries concerned, never from the whole source (its parsed
  // structure apart, in data: settling never reads it, and it was half of every entry's JSON). due_ms:
  // past it an open entry is overdue (stuck). events.data: a lifecycle event's facts as JSON.
  `
  ALTER TABLE messages ADD COLUMN locator TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN due_ms INTEGER;
  DROP INDEX messages_path;
  CREATE UNIQUE INDEX messages_path ON messages (source, path, locator) WHERE path IS NOT NULL;
  CREATE INDEX messages_due ON messages (due_ms) WHERE due_ms IS NOT NULL AND path IS NOT NULL;
  ALTER TABLE events ADD COLUMN data TEXT;
  CREATE TABLE entry_files (
    source TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    consumed INTEGER NOT NULL,
    head BLOB NOT NULL,
    PRIMARY KEY (source, path)
  ) WITHOUT ROWID;
  CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    path TEXT,
    locator TEXT NOT NULL,
    kind TEXT NOT NULL,
    message_id TEXT,
    entry TEXT NOT NULL,
    data TEXT
  );
  CREATE UNIQUE INDEX entries_place ON entries (source, path, locator) WHERE path IS NOT NULL;
  CREATE INDEX entries_message_id ON entries (source, message_id) WHERE message_id IS NOT NULL;
  CREATE INDEX entries_documents ON entries (source) WHERE kind = 'document';
  CREATE TABLE entry_refs (entry INTEGER NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL);
  CREATE INDEX entry_refs_target ON entry_refs (source, target);
  CREATE INDEX entry_refs_entry ON entry_refs (entry);
  `,
  // 20: the charts (charts.ts). Counting 100,000 messages per bucket and agent or type read every
  // row (900 ms on the loaded 2-core test machine); from messages_chart, only it, and from the
  // per-hour ones, in the order the counts are grouped in (no sort; sort_ms last, or SQLite reads
  // every row for it: 197 ms p50 in the bench instead). Failures over time read every
  // move (one per delivery) to find the few into a failed status; here they are the index.
  `
  CREATE INDEX messages_chart ON messages (sort_ms, agent, type, folder);
  CREATE INDEX messages_hour_agent ON messages (sort_ms / 3600000, agent, folder, sort_ms);
  CREATE INDEX messages_hour_type ON messages (sort_ms / 3600000, type, folder, sort_ms);
  CREATE INDEX events_failures ON events (at_ms) WHERE ${FAILURE_EVENT_SQL};
  `,
  // 21: a type alone, newest first, as status has. The planner took migration 20's per-hour type
  // index and sorted every message of a common type: 50 ms of CPU for `type:task_assignment` (one
  // type in six of 100,000); in this order the first page is read off the index (under 1 ms).
  `
  CREATE INDEX messages_type_sort ON messages (type, sort_ms DESC, key DESC);
  `,
  // 22: the charts' messages per hour and agent or type, kept by triggers as agent_counts is. Read
  // from migration 20's per-hour indexes, the year of 100,000 bench messages was 11,554 rows of
  // (hour, agent) counted from 100,000 index entries and summed into buckets in JS: 50.8 ms p95 on
  // the quiet 2-core bench machine, at the budget. Here they are summed per bucket in SQL from
  // those 11,554 rows, and a load builds two small tables instead of two 100,000-row indexes.
  `
  DROP INDEX IF EXISTS messages_hour_agent;
  DROP INDEX IF EXISTS messages_hour_type;
  DELETE FROM deferred_indexes WHERE name IN ('messages_hour_agent', 'messages_hour_type');
  CREATE TABLE hour_agent_counts (hour INTEGER NOT NULL, agent TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (hour, agent)) WITHOUT ROWID;
  CREATE TABLE hour_type_counts (hour INTEGER NOT NULL, type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (hour, type)) WITHOUT ROWID;
  ${FILL_HOUR_COUNTS_SQL}
  CREATE TRIGGER hour_counts_insert AFTER INSERT ON messages WHEN new.folder != 'dead_letter' BEGIN
    INSERT INTO hour_agent_counts VALUES (new.sort_ms / 3600000, new.agent, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO hour_type_counts VALUES (new.sort_ms / 3600000, coalesce(new.type, '${NO_TYPE}'), 1) ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER hour_counts_delete AFTER DELETE ON messages WHEN old.folder != 'dead_letter' BEGIN
    UPDATE hour_agent_counts SET n = n - 1 WHERE hour = old.sort_ms / 3600000 AND agent = old.agent;
    UPDATE hour_type_counts SET n = n - 1 WHERE hour = old.sort_ms / 3600000 AND type = coalesce(old.type, '${NO_TYPE}');
  END;
  CREATE TRIGGER hour_counts_update AFTER UPDATE OF sort_ms, agent, type, folder ON messages
    WHEN old.sort_ms / 3600000 IS NOT new.sort_ms / 3600000 OR old.agent IS NOT new.agent OR old.type IS NOT new.type
      OR (old.folder = 'dead_letter') != (new.folder = 'dead_letter') BEGIN
    UPDATE hour_agent_counts SET n = n - 1 WHERE old.folder != 'dead_letter' AND hour = old.sort_ms / 3600000 AND agent = old.agent;
    UPDATE hour_type_counts SET n = n - 1 WHERE old.folder != 'dead_letter' AND hour = old.sort_ms / 3600000 AND type = coalesce(old.type, '${NO_TYPE}');
    INSERT INTO hour_agent_counts SELECT new.sort_ms / 3600000, new.agent, 1 WHERE new.folder != 'dead_letter' ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO hour_type_counts SELECT new.sort_ms / 3600000, coalesce(new.type, '${NO_TYPE}'), 1 WHERE new.folder != 'dead_letter' ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
