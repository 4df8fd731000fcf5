// SQL that migrations and the code that fills or reads their tables share word for word.

/** The trigger-kept tables filled from the messages: by migrations 9 and 11, and by a load's crash repair (load-triggers.ts). */
export const FILL_AGENT_COUNTS_SQL = `INSERT INTO agent_counts (source, agent, dead_letter, status, n, stuck, last_ms)
    SELECT source, agent, folder = 'dead_letter', status, COUNT(*), SUM(stuck), MAX(updated_ms) FROM messages GROUP BY 1, 2, 3, 4;`;
export const FILL_THREAD_LAST_SQL = "INSERT INTO thread_last SELECT thread_key, max(sort_ms) FROM messages WHERE thread_key IS NOT NULL GROUP BY thread_key;";
/** The hour the counts per hour (migration 22) are kept by: `sort_ms / 3600000` in their SQL. */
export const HOUR_MS = 3_600_000;
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
