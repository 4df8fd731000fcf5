// Versioned migrations: index i brings a journal from version i to i + 1 (PRAGMA user_version).
// Never edit a shipped migration; add a new one, so journals written by older versions open.
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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
