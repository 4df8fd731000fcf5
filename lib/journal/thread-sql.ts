// The SQL of threads. Every message carries its thread in `thread_key` (kept current at write
// time by thread-keys.ts; filled for older journals by migration 3), a string:
//   h␟<Thread-ID>            the thread id its own file states (a header thread)
//   i␟<repository>␟<issue>   no Thread-ID, but a repository and an issue (inferred)
//   t␟<task_id>              no Thread-ID, no repository + issue, but a task id in its body (inferred)
// A message without a Thread-ID that is the dead letter of, or replies to (In-Reply-To), a
// message in a thread takes that thread instead, transitively: the parent's thread_key wins over
// its own group. So the list is a grouped query on an index, never a walk over messages.
const SEP = "char(31)";

/** The group a message's own headers and body give it (alias `a`), or NULL. */
export function ownGroup(a: string): string {
  return `(CASE
    WHEN ${a}.thread_id IS NOT NULL THEN 'h' || ${SEP} || ${a}.thread_id
    WHEN ${a}.repository IS NOT NULL AND ${a}.issue IS NOT NULL THEN 'i' || ${SEP} || ${a}.repository || ${SEP} || ${a}.issue
    WHEN ${a}.task_id IS NOT NULL THEN 't' || ${SEP} || ${a}.task_id
  END)`;
}

/** The thread_key message `m` should have: its Thread-ID, else its parent's thread, else its own group. */
const KEY_OF_M = `(CASE WHEN m.thread_id IS NOT NULL THEN 'h' || ${SEP} || m.thread_id ELSE COALESCE(
    CASE
      WHEN m.dead_letter_of IS NOT NULL THEN (SELECT p.thread_key FROM messages p WHERE p.key = m.dead_letter_of AND p.id != m.id)
      WHEN m.in_reply_to IS NOT NULL THEN (SELECT min(p.thread_key) FROM messages p WHERE p.message_id = m.in_reply_to AND p.id != m.id)
    END,
    ${ownGroup("m")}) END)`;

/** Recompute one message's thread_key; returns a row only when it changed. */
export const REFRESH_SQL = `UPDATE messages AS m SET thread_key = ${KEY_OF_M}
  WHERE m.key = ? AND m.thread_key IS NOT ${KEY_OF_M} RETURNING key, message_id`;

/** Messages that take their thread from `?` (a key) or `?` (a Message-ID). */
export const DEAD_LETTERS_OF_SQL = "SELECT key FROM messages WHERE dead_letter_of = ? AND thread_id IS NULL";
export const REPLIES_TO_SQL = "SELECT key FROM messages WHERE in_reply_to = ? AND thread_id IS NULL AND dead_letter_of IS NULL";
/** The same, for any of the keys (or Message-IDs) in a JSON array. */
export const DEAD_LETTERS_OF_ANY_SQL = "SELECT key FROM messages WHERE dead_letter_of IN (SELECT value FROM json_each(?)) AND thread_id IS NULL";
export const REPLIES_TO_ANY_SQL = "SELECT key FROM messages WHERE in_reply_to IN (SELECT value FROM json_each(?)) AND thread_id IS NULL AND dead_letter_of IS NULL";

/** Every thread's last activity, as triggers keep it (migration 11): one small row per thread. */
export const THREAD_LAST_SQL = "SELECT thread_key AS g, last_ms FROM thread_last";

/** The threads with a message matching `filter` (the message search syntax compiled by filter.ts). */
export const threadsMatchingSql = (filter: string) =>
  `SELECT DISTINCT thread_key FROM messages WHERE thread_key IS NOT NULL AND (${filter})`;

/** One row per (thread, status) of the threads given as a JSON array of thread_keys. */
export const THREAD_ROWS_SQL = `SELECT thread_key AS g, status, count(*) AS n, sum(stuck) AS stuck,
    min(sort_ms) AS first_ms, max(sort_ms) AS last_ms,
    json_group_array(DISTINCT from_name) AS senders,
    json_group_array(DISTINCT to_list) AS recipients,
    json_group_array(DISTINCT protocol) AS protocols
  FROM messages WHERE thread_key IN (SELECT value FROM json_each(?)) GROUP BY thread_key, status`;

/** Every distinct inferred group of one kind (`i` or `t`), from the thread_key index. */
export const INFERRED_GROUPS_SQL = `SELECT DISTINCT thread_key FROM messages
  WHERE thread_key >= ? || ${SEP} AND thread_key < ? || char(32)`;

/** Every header thread id longer than `?` characters, from the thread_key index (a header group is 'h' SEP id). */
export const LONG_HEADER_THREAD_IDS_SQL = `SELECT DISTINCT substr(thread_key, 3) FROM messages
  WHERE thread_key >= 'h' || ${SEP} AND thread_key < 'h' || char(32) AND length(thread_key) > ? + 2`;

/** `ownGroup` for a row not yet written (the bulk loader builds thread_key in JS); keep the two in step. */
export function ownGroupOf(m: { thread_id: string | null; repository: string | null; issue: string | null; task_id: string | null }): string | null {
  if (m.thread_id !== null) return `h\x1f${m.thread_id}`;
  if (m.repository !== null && m.issue !== null) return `i\x1f${m.repository}\x1f${m.issue}`;
  if (m.task_id !== null) return `t\x1f${m.task_id}`;
  return null;
}
