// When an IGNITE file's name says it was written (docs/protocols/ignite-mime.md "File names"). Pure.

/** Names before this are not times IGNITE wrote (it is from 2025): a number that only looks like one. */
const EARLIEST_MS = Date.parse("2000-01-01T00:00:00Z");

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The number the digits from `from` to `to` (exclusive) write: 13 at most, exact in a double; no string sliced for Number(). */
function digitsAt(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

/**
 * The time in a file's name, in ms, or null when it has none: its last run of exactly 16 digits
 * (unix microseconds) or 10 (unix seconds). `{type}_{usec}.mime`, `{from}_{type}_{usec}_{pid}.mime`,
 * `escalation_{sec}.mime`; a dead letter's `{original}_dlq_{sec}.mime` takes its own (last) time,
 * when it was written. Scanned by hand from the end: a first scan orders every file by it, and
 * at a million names a regular expression's matches took 1.0–1.8 s of the main thread.
 */
export function nameTimeMs(name: string): number | null {
  // A path's folders are passed over: the name-time tests give paths.
  const start = name.lastIndexOf("/") + 1;
  let end = name.length;
  while (end > start) {
    // The run of digits that ends at `end` (exclusive), if any.
    let from = end;
    while (from > start && isDigit(name.charCodeAt(from - 1))) from--;
    const length = end - from;
    if (length === 16 || length === 10) {
      const ms = length === 16 ? digitsAt(name, from, from + 13) : digitsAt(name, from, end) * 1000;
      return ms >= EARLIEST_MS ? ms : null;
    }
    end = length > 0 ? from : end - 1;
  }
  return null;
}
