// When an IGNITE file's name says it was written (docs/protocols/ignite-mime.md "File names"). Pure.

/** A run of exactly 16 digits (unix microseconds) or 10 (unix seconds), not part of a longer run. */
const TIME_RUN = /(?<!\d)(\d{16}|\d{10})(?!\d)/g;
/** Names before this are not times IGNITE wrote (it is from 2025): a number that only looks like one. */
const EARLIEST_MS = Date.parse("2000-01-01T00:00:00Z");

/**
 * The time in a file's name, in ms, or null when it has none. `{type}_{usec}.mime`,
 * `{from}_{type}_{usec}_{pid}.mime`, `escalation_{sec}.mime`; a dead letter's
 * `{original}_dlq_{sec}.mime` takes its own (last) time, when it was written.
 */
export function nameTimeMs(relPath: string): number | null {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  const runs = name.match(TIME_RUN);
  const last = runs?.[runs.length - 1];
  if (!last) return null;
  const ms = last.length === 16 ? Number(last.slice(0, 13)) : Number(last) * 1000;
  return ms >= EARLIEST_MS ? ms : null;
}
