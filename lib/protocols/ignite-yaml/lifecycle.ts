// IGNITE v2's lifecycle keys, changed the way the queue monitor changes them (retry_handler.sh
// `process_retry`, queue_monitor.sh): a key is deleted line by line (`sed '/^key:/d'`) and its
// new value appended as a top-level `key: value` line at the end of the file. Pure.
import { parseYamlBounded } from "@/lib/protocols/bounded-yaml";
import { keyLine, unquotedValue } from "@/lib/protocols/entry-kit";

/** What the monitor adds while a message is processed and retried; a requeue starts afresh. */
export const LIFECYCLE_KEYS = ["status", "processed_at", "retry_count", "last_retry_at", "next_retry_after", "error_reason", "error_at"] as const;

export function removeKey(text: string, key: string): string {
  return text
    .split("\n")
    .filter((line) => !line.startsWith(`${key}:`))
    .join("\n");
}

/** `key: value` appended on a line of its own (after a final newline the file may lack). */
export function appendKey(text: string, key: string, value: string): string {
  return `${text === "" || text.endsWith("\n") ? text : `${text}\n`}${key}: ${value}\n`;
}

/** A value as the shell writes it: `"…"` (printf '%s: "%s"'); JSON quoting is the same for the values written here. */
export function quoted(value: string): string {
  return JSON.stringify(value);
}

/**
 * A plain scalar where YAML reads it back as the same string, else quoted. The value may come
 * from a workspace file (a reply's `task_id`), so it is read back on the bounded path: `yaml`'s
 * parse of 20,000 `[` ran the process out of memory.
 */
export function scalar(value: string): string {
  const back = parseYamlBounded(value, { what: "The value", schema: "core" });
  return back.ok && back.data === value && !value.includes("#") ? value : quoted(value);
}

/** The first `retry_count:` line's number, as the monitor reads it (grep | head -1). */
export function retryCountOf(text: string): number {
  const m = /^retry_count:[ \t]*"?(\d+)"?/m.exec(text);
  return m?.[1] ? Number(m[1]) : 0;
}

/** `process_retry` exactly: retry_count n+1, last_retry_at, next_retry_after, error_* removed, status lines → retrying. */
export function markRetrying(text: string, at: string, nextRetryAfter: string): string {
  const count = retryCountOf(text);
  let out = appendKey(removeKey(text, "retry_count"), "retry_count", String(count + 1));
  out = appendKey(removeKey(out, "last_retry_at"), "last_retry_at", quoted(at));
  out = appendKey(removeKey(out, "next_retry_after"), "next_retry_after", quoted(nextRetryAfter));
  out = removeKey(removeKey(out, "error_reason"), "error_at");
  return out.replace(/^status:.*$/gm, "status: retrying");
}

/** A requeued message: lifecycle keys removed, `requeued_at` and `requeued_from` appended (the v3 headers' counterparts). */
export function requeued(text: string, from: string, at: string): string {
  let out = text;
  for (const key of LIFECYCLE_KEYS) out = removeKey(out, key);
  return appendKey(appendKey(out, "requeued_at", quoted(at)), "requeued_from", quoted(from));
}

/**
 * Mailroom's mark on a dead letter it archives after requeueing its original: where the original
 * went, appended as a top-level key like the monitor's own. The archive holds discarded letters too,
 * and only this tells the two apart (read.ts); restoring the letter removes it again.
 */
export const REQUEUED_TO = "requeued_to";

const MARK = new RegExp(`^${REQUEUED_TO}:[^\\r\\n]*`);

/**
 * The dead letter as a requeue archives it: its one mark last, in the file's own line ending. A file
 * without a final line ending gets the mark after one, and none after it, so unmarked() can put
 * back exactly what was there.
 */
export function markedRequeued(letterText: string, target: string): string {
  const text = unmarked(letterText) ?? letterText;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const line = `${REQUEUED_TO}: ${quoted(target)}`;
  if (text === "") return `${line}${eol}`;
  return /\r?\n$/.test(text) ? `${text}${line}${eol}` : `${text}${eol}${line}`;
}

/** Where a requeue sent the original of the letter `text` (its last mark); null when it bears none. */
export function requeuedTo(text: string): string | null {
  let last: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const field = keyLine(line);
    if (field?.key === REQUEUED_TO) last = unquotedValue(field.value) ?? field.value;
  }
  return last;
}

/** The letter as it was before a requeue marked it, byte for byte (see markedRequeued); null when it bears no mark. */
export function unmarked(text: string): string | null {
  if (requeuedTo(text) === null) return null;
  const lines = text.split(/(?<=\n)/);
  const kept = lines.filter((l) => !MARK.test(l));
  const last = lines[lines.length - 1] ?? "";
  // A mark ending the file without a line ending came after the one it added: that one goes too.
  if (MARK.test(last) && !last.endsWith("\n") && kept.length > 0) kept[kept.length - 1] = (kept[kept.length - 1] ?? "").replace(/\r?\n$/, "");
  return kept.join("");
}
