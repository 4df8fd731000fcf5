// Versioned migrations: index i brings a journal from version i to i + 1 (PRAGMA user_version).
// Never edit a shipped migration; add a new one, so journals written by older versions open.
// Migrations 1–11 are in schema-base.ts; the SQL they share with the code, in schema-sql.ts.
import { FIRST_MIGRATIONS } from "./schema-base";
import { FAILURE_EVENT_SQL, FILL_HOUR_COUNTS_SQL, NO_TYPE } from "./schema-sql";

export const MIGRATIONS: readonly string[] = [
  ...FIRST_MIGRATIONS,
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
  // 23: fewer indexes to keep on every write. Each full index cost every insert (and every update
  // of its columns) a B-tree write: with 25 of them they were ~80 of ~115 µs a row appended to a
  // channel. By EXPLAIN QUERY PLAN over the app's queries at 100,000 messages: (agent, status) served
  // only the distinct agents, which (agent, sort_ms, key) serves alike; (status, mtime_ms) only the
  // overview's waiting messages, found by status as well through (status, sort_ms, key); (key) WHERE
  // stuck = 1 nothing (the stuck sort index serves every stuck query). The charts' (sort_ms, agent,
  // type, folder) and the timeline's (sort_ms, key) become one: the timeline's order with the charts'
  // columns after it, read as before by both. And the rescan's file identities hold only
  // one-message files (locator ''): a file of many entries is tracked by entry_files, so its
  // entries no longer go into an index no query of theirs reads.
  `
  DROP INDEX IF EXISTS messages_agent_status;
  DROP INDEX IF EXISTS messages_status;
  DROP INDEX IF EXISTS messages_stuck;
  DROP INDEX IF EXISTS messages_chart;
  DROP INDEX IF EXISTS messages_sort;
  DROP INDEX IF EXISTS messages_files;
  DELETE FROM deferred_indexes WHERE name IN ('messages_agent_status', 'messages_status', 'messages_stuck', 'messages_chart', 'messages_sort', 'messages_files');
  CREATE INDEX messages_sort ON messages (sort_ms DESC, key DESC, agent, type, folder);
  CREATE INDEX messages_files ON messages (source, path, mtime_ms, size, ino) WHERE path IS NOT NULL AND locator = '';
  `,
  // 24: what an entry's row repeated, kept once. A channel's envelopes carry random ids, so each
  // append wrote a page of each index on one: of the ~940 WAL pages of 16 KB a commit of 200
  // appends wrote to a 100 MB KickLang channel's journal, 119 were messages_path's and 99
  // messages_thread_id's. messages_path held an entry's place (source, path, locator), which
  // entries_place holds and keeps unique: it now holds one-message files (locator '') only, found
  // by (source, path). messages_thread_id served only the search for a thread id too long for an
  // address, which reads thread_key's index now (a header thread id's group is 'h' SEP id). And
  // messages_in_reply_to (84 pages) is read only for replies that wait for their parent's thread,
  // those without a thread id of their own: it holds only those (every envelope of a KickLang
  // channel has one, its correlation root; so does an IGNITE reply with a Thread-ID).
  `
  DROP INDEX IF EXISTS messages_path;
  DROP INDEX IF EXISTS messages_thread_id;
  DROP INDEX IF EXISTS messages_in_reply_to;
  DELETE FROM deferred_indexes WHERE name IN ('messages_path', 'messages_thread_id', 'messages_in_reply_to');
  CREATE UNIQUE INDEX messages_path ON messages (source, path) WHERE path IS NOT NULL AND locator = '';
  CREATE INDEX messages_in_reply_to ON messages (in_reply_to) WHERE in_reply_to IS NOT NULL AND thread_id IS NULL;
  `,
  // 25: which version of its protocol's reader read each file of many entries. A reader that
  // comes to read its files differently (a field it now fills) says so with a new version, and
  // the files an older one read are read again from their start, their entries matched by place:
  // a journal does not keep what an old reader made of a file that never changes again.
  `
  ALTER TABLE entry_files ADD COLUMN reader INTEGER NOT NULL DEFAULT 0;
  `,
  // 26: a timeline filtered by status or priority, read from the timeline's index. A page of a rare
  // match (100,000 mixed messages: 474 high-priority ones not delivered, 189 critical ones) walked
  // messages_sort and read each row from the table to test it: 20-41 ms a page of 100. With the two
  // columns in the index a row is read only once it matches: 6-14 ms. The index was 153 ms to build.
  `
  DROP INDEX IF EXISTS messages_sort;
  DELETE FROM deferred_indexes WHERE name = 'messages_sort';
  CREATE INDEX messages_sort ON messages (sort_ms DESC, key DESC, agent, type, folder, status, priority);
  `,
  // 27: the copies of one overdue or stuck step a sweep wrote again each second, while the file
  // path's stuck sweep cleared the entries' overdue rows for the next due sweep to mark (upkeep.ts):
  // a step is kept once for its message, kind and time. One pass of the events, each such step
  // looked up by its message's own steps (events_key).
  `
  DELETE FROM events WHERE kind IN ('overdue', 'stuck')
    AND EXISTS (SELECT 1 FROM events p WHERE p.key = events.key AND p.id < events.id AND p.kind = events.kind AND p.at_ms = events.at_ms);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

