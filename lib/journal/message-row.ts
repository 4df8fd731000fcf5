import type { FileRecord } from "./writer";
import { taskIdOf } from "./task-id";

const PREVIEW_CHARS = 160;

const collapse = (text: string) => text.replace(/\s+/g, " ").trimStart();

/** The body's first characters, whitespace runs collapsed to one space. */
export function previewOf(body: string): string {
  // From the shortest prefix that already gives more than the preview (a first scan previews every
  // body), so a long body is not rewritten whole. A prefix's collapse is a prefix of the whole's.
  for (const chars of [2 * PREVIEW_CHARS, 8 * PREVIEW_CHARS, Infinity]) {
    const head = collapse(body.slice(0, chars));
    if (head.length > PREVIEW_CHARS + 1 || chars >= body.length) return head.trimEnd().slice(0, PREVIEW_CHARS);
  }
  return "";
}

/**
 * The messages row a file record becomes (thread_key, stuck, duplicate and dead_letter_of are kept
 * apart, and the file's bytes go to message_raw).
 */
export function messageRow(rec: FileRecord, key: string, atMs: number, seq: number) {
  const p = rec.parsed;
  return {
    key,
    source: rec.source,
    protocol: rec.protocol,
    message_id: p.messageId,
    from_name: p.from,
    to_list: JSON.stringify(p.to),
    cc_list: JSON.stringify(p.cc),
    type: p.type,
    priority: p.priority,
    thread_id: p.threadId,
    in_reply_to: p.inReplyTo,
    correlation_id: p.correlationId,
    repository: p.repository,
    issue: p.issue,
    date: p.date,
    sort_ms: p.date ? Date.parse(p.date) : atMs,
    agent: rec.placement.agent,
    folder: rec.placement.folder,
    path: rec.relPath,
    last_path: rec.originPath,
    status: p.status,
    raw_status: p.rawStatus,
    retry_count: p.retryCount,
    next_retry_at: p.nextRetryAt,
    problems: JSON.stringify(p.problems),
    preview: previewOf(p.body),
    body: p.body,
    task_id: taskIdOf(p.body),
    size: rec.found.size,
    mtime_ms: rec.found.mtimeMs,
    ino: rec.found.ino,
    updated_ms: atMs,
    seq,
  };
}

export type MessageRow = ReturnType<typeof messageRow>;

/** The first-seen event's detail, as the writer and the bulk loader both word it. */
export function firstSeenDetail(rec: FileRecord): string {
  const where = rec.relPath ?? `${rec.originPath} (known from a dead letter; the file is gone)`;
  return `first seen in ${where} as ${rec.parsed.status}`;
}
