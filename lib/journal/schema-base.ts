// The journal's first eleven migrations (wave 1): messages and their events, threads, full text,
// the overview's counts and each thread's last activity. schema.ts lists them first, then the rest.
import { FILL_AGENT_COUNTS_SQL, FILL_THREAD_LAST_SQL } from "./schema-sql";

export const FIRST_MIGRATIONS: readonly string[] = [
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
];
