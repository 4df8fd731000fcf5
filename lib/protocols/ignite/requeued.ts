// The file a requeue writes (docs/protocols/ignite-mime.md "What Mailroom writes"). Pure.
import { ApiError } from "@/lib/server/api-error";
import { getHeader, isoWithOffset, removeHeader, setHeader } from "./build";
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

/** The dead letter as a requeue archives it: marked with where its original went. */
export function markedRequeued(letterText: string, targetRel: string): string {
  return writable(() => setHeader(letterText, REQUEUED_TO, targetRel));
}

/** Where a requeue sent the original of the letter `text`; null when it bears no mark. */
export function requeuedTo(text: string): string | null {
  return getHeader(text, REQUEUED_TO);
}

/** The letter as it was before a requeue marked it; null when it bears no mark. */
export function unmarked(text: string): string | null {
  return requeuedTo(text) === null ? null : removeHeader(text, REQUEUED_TO);
}

function writable(make: () => string): string {
  try {
    return make();
  } catch (err) {
    // setHeader refuses CR/LF/NUL in a value (e.g. a file name that holds a newline).
    throw new ApiError(409, "unwritable", `the requeued file could not be written: ${err instanceof Error ? err.message : String(err)}. Nothing was changed.`);
  }
}
