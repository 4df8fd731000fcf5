// The queue monitor's retry, byte for byte: `process_retry` (retry_handler.sh) followed by the
// `update-status retrying` that scan_for_timeouts runs before it moves the file back. Each step is
// one `ignite_mime.py` call that reads the file as Python text (universal newlines: CRLF and lone
// CR become LF; a BOM is kept as U+FEFF) and writes it back with LF endings, so the steps are
// applied here one after the other, each from the previous one's output. Pure.
import { isoWithOffset, removeHeader, splitLines, splitRaw } from "./build";

const STATUS = "X-IGNITE-Status";
const RETRY_COUNT = "X-IGNITE-Retry-Count";

const rejoin = (lines: string[], body: string): string => lines.join("\n") + "\n\n" + body;

/** `ignite_mime.py update-status`: every Status line rewritten (or one appended), then each extra set at its first line. */
function updateStatus(raw: string, status: string, extra: [string, string][] = []): string {
  const { head, body } = splitRaw(raw);
  let seen = false;
  const lines = splitLines(head).map((l) => {
    if (!l.startsWith(`${STATUS}:`)) return l;
    seen = true;
    return `${STATUS}: ${status}`;
  });
  if (!seen) lines.push(`${STATUS}: ${status}`);
  for (const [name, value] of extra) {
    const i = lines.findIndex((l) => l.startsWith(`${name}:`));
    if (i >= 0) lines[i] = `${name}: ${value}`;
    else lines.push(`${name}: ${value}`);
  }
  return rejoin(lines, body);
}

/** Python's text-mode read: CRLF and lone CR become LF. */
const textModeRead = (raw: string): string => raw.replace(/\r\n?/g, "\n");

export type RetryCount = { ok: true; count: number } | { ok: false; reason: string };

// Bash arithmetic's whitespace, around a number (a CR is not one: `$((2\r + 1))` is a syntax error).
const BASH_NUMBER = /^[ \t\n]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[ \t\n]*$/;

/**
 * Retry-Count as process_retry reads it: `grep -m1 "^X-IGNITE-Retry-Count:"` over the whole file
 * as it is on disk (CRs and all, the body too), leading blanks cut by sed, empty meaning 0, then
 * `$((current_count + 1))`: decimal, a leading 0 is octal, 0x is hex, 64-bit. Anything else bash
 * would evaluate as an expression or fail on (the monitor stops on such an error), so it is refused.
 */
export function upstreamRetryCount(raw: string): RetryCount {
  const line = raw.split("\n").find((l) => l.startsWith(`${RETRY_COUNT}:`));
  const value = line === undefined ? "" : line.slice(RETRY_COUNT.length + 1).replace(/^[ \t\v\f\r]+/, "");
  if (value === "") return { ok: true, count: 0 };
  const m = BASH_NUMBER.exec(value);
  if (!m) {
    const shown = JSON.stringify(value);
    return {
      ok: false,
      reason: value.endsWith("\r")
        ? `${RETRY_COUNT} is ${shown}: the line ends in a CR (a CRLF file), which the queue monitor's bash arithmetic fails on, so it would not retry this file either.`
        : `${RETRY_COUNT} is ${shown}, not a number the queue monitor's bash arithmetic reads as one; it would evaluate it as an expression or fail.`,
    };
  }
  const digits = m[2] ?? "0";
  const magnitude = /^0[xX]/.test(digits) ? BigInt(digits) : digits.length > 1 && digits.startsWith("0") ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  const signed = BigInt.asIntN(64, m[1] === "-" ? -magnitude : magnitude);
  if (signed < 0n || signed > 1_000_000n) {
    return { ok: false, reason: `${RETRY_COUNT} is ${JSON.stringify(value)} (${signed}); Mailroom retries only counts from 0 to 1000000.` };
  }
  return { ok: true, count: Number(signed) };
}

/** calculate_backoff's cap: RETRY_BASE_DELAY × 2^count, at most RETRY_MAX_DELAY (5 and 300 s by default). */
export function backoffCapSeconds(count: number): number {
  // Bash shifts a 64-bit integer (by count mod 64 on x86) and the product wraps: a huge count is no cap.
  const product = BigInt.asIntN(64, 5n * BigInt.asIntN(64, 1n << BigInt(count % 64)));
  return product > 300n ? 300 : product > 0n ? Number(product) : 0;
}

/** `RANDOM % (cap + 1)`: a whole number of seconds in [0, cap]. */
export function drawBackoffSeconds(count: number, random: () => number = Math.random): number {
  const cap = backoffCapSeconds(count);
  return Math.min(cap, Math.floor(random() * (cap + 1)));
}

export interface RetryResult {
  text: string;
  /** The Retry-Count written. */
  count: number;
}

/**
 * The file's text after the monitor's retry at `at`, with `backoffSeconds` (0–cap, the caller's
 * draw of `RANDOM % (cap + 1)`). `raw` is the file decoded as UTF-8 with its BOM kept.
 */
export function upstreamRetry(raw: string, count: number, at: Date, backoffSeconds: number): RetryResult {
  const next = new Date(at.getTime() + backoffSeconds * 1000);
  let text = textModeRead(raw);
  text = removeHeader(text, "X-IGNITE-Error-Reason");
  text = removeHeader(text, "X-IGNITE-Error-At");
  text = updateStatus(text, "retrying", [
    [RETRY_COUNT, String(count + 1)],
    ["X-IGNITE-Last-Retry-At", isoWithOffset(at)],
    ["X-IGNITE-Next-Retry-After", isoWithOffset(next)],
  ]);
  // scan_for_timeouts: `mime_update_status "$file" "retrying"`, then `mv` to the queue.
  return { text: updateStatus(text, "retrying"), count: count + 1 };
}
