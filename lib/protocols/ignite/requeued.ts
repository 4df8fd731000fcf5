// The file a requeue writes (docs/protocols/ignite-mime.md "What Mailroom writes"). Pure.
import { ApiError } from "@/lib/server/api-error";
import { isoWithOffset, removeHeader, setHeader } from "./build";
import { splitHeaderBlock } from "./reference";

/** What the queue monitor adds while a message is processed and retried; a requeue starts afresh. */
export const LIFECYCLE_HEADERS = [
  "X-IGNITE-Status",
  "X-IGNITE-Processed-At",
  "X-IGNITE-Retry-Count",
  "X-IGNITE-Last-Retry-At",
  "X-IGNITE-Next-Retry-After",
  "X-IGNITE-Error-Reason",
  "X-IGNITE-Error-At",
] as const;

function withBody(text: string, body: string): string {
  return splitHeaderBlock(text).headerPart + "\n\n" + body;
}

/**
 * The requeued file: lifecycle headers removed, X-IGNITE-Requeued-At (ISO 8601 with offset) and
 * X-IGNITE-Requeued-From added, optionally a new body. Message-ID and every other header stay as
 * they were: it is the same message.
 */
export function requeuedText(text: string, opts: { requeuedFrom: string; at: Date; body?: string }): string {
  return writable(() => {
    let out = text;
    for (const name of LIFECYCLE_HEADERS) out = removeHeader(out, name);
    out = setHeader(out, "X-IGNITE-Requeued-At", isoWithOffset(opts.at));
    out = setHeader(out, "X-IGNITE-Requeued-From", opts.requeuedFrom);
    return opts.body === undefined ? out : withBody(out, opts.body);
  });
}

/**
 * Mailroom's mark on a dead letter it archives after requeueing its original: where the original
 * went. The archive holds discarded letters too, and only this tells the two apart (an archived
 * letter reads as requeued with it, discarded without); restoring the letter removes it again.
 */
export const REQUEUED_TO = "X-IGNITE-Requeued-To";

const MARK_LINE = new RegExp(`^${REQUEUED_TO}:[^\\r\\n]*(\\r?\\n)`, "gim");

/** The header block's end (the blank line) and its line ending; null without one. */
function headerEnd(text: string): { at: number; eol: string } | null {
  const lf = text.indexOf("\n\n");
  const crlf = text.indexOf("\r\n\r\n");
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf + 2, eol: "\r\n" };
  return lf >= 0 ? { at: lf + 1, eol: "\n" } : null;
}

/** The header block with any mark taken out, exactly: nothing else in it changes, line endings included. */
function withoutMark(text: string): string {
  const end = headerEnd(text);
  if (!end) return text;
  return text.slice(0, end.at).replace(MARK_LINE, "") + text.slice(end.at);
}

/** The dead letter as a requeue archives it: one mark, last in its header block, in its own line ending. */
export function markedRequeued(letterText: string, targetRel: string): string {
  return writable(() => {
    if (/[\r\n\0]/.test(targetRel)) throw new Error(`${REQUEUED_TO}: a value may not hold a line break or NUL`);
    const text = withoutMark(letterText);
    const end = headerEnd(text);
    if (!end) throw new Error("the dead letter has no header block to mark");
    return `${text.slice(0, end.at)}${REQUEUED_TO}: ${targetRel}${end.eol}${text.slice(end.at)}`;
  });
}

/** Where a requeue sent the original of the letter `text` (its last mark); null when it bears none. */
export function requeuedTo(text: string): string | null {
  const end = headerEnd(text);
  const marks = end ? [...text.slice(0, end.at).matchAll(new RegExp(`^${REQUEUED_TO}:([^\\r\\n]*)`, "gim"))] : [];
  return marks.length > 0 ? (marks[marks.length - 1]?.[1] ?? "").trim() : null;
}

/** The letter as it was before a requeue marked it (byte for byte); null when it bears no mark. */
export function unmarked(text: string): string | null {
  return requeuedTo(text) === null ? null : withoutMark(text);
}

function writable(make: () => string): string {
  try {
    return make();
  } catch (err) {
    // setHeader refuses CR/LF/NUL in a value (e.g. a file name that holds a newline).
    throw new ApiError(409, "unwritable", `the requeued file could not be written: ${err instanceof Error ? err.message : String(err)}. Nothing was changed.`);
  }
}
