// The time range the timeline, threads and charts share, as the URL carries it: `?range=1h` (a
// window ending now, so it moves as time passes) or `?from=…&to=…` (ISO times, a fixed window).
// Pure: the pages, the API and the client picker read it the same way.
import { z } from "zod";

export const RANGE_PRESETS = ["15m", "1h", "24h", "7d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const PRESET_MS: Record<RangePreset, number> = { "15m": 15 * 60_000, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 };
export const PRESET_LABEL: Record<RangePreset, string> = { "15m": "Last 15 min", "1h": "Last 1 h", "24h": "Last 24 h", "7d": "Last 7 days" };

export type TimeRange = { kind: "all" } | { kind: "preset"; preset: RangePreset } | { kind: "custom"; from: number; to: number };

export const ALL_TIME: TimeRange = { kind: "all" };

export class TimeRangeError extends Error {}

const one = z.union([z.string(), z.array(z.string())]).optional().transform((v) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined);
const rangeParams = z.object({ range: one, from: one, to: one });

/** An ISO time; one without a zone is UTC, as the search's dates are. */
function isoMs(raw: string, name: string): number {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? raw : /T/.test(raw) ? `${raw}Z` : `${raw}T00:00:00Z`;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(zoned) : NaN;
  if (Number.isNaN(ms)) throw new TimeRangeError(`${name} "${raw}" is not a time: use an ISO time like 2026-11-26T09:30:00Z`);
  return ms;
}

/** The range the query string asks for; throws TimeRangeError saying what is wrong with it. */
export function parseRange(raw: Record<string, string | string[] | undefined>): TimeRange {
  const p = rangeParams.parse(raw);
  if (p.from !== undefined || p.to !== undefined) {
    if (p.range !== undefined && p.range !== "custom") throw new TimeRangeError("give either range or from/to, not both");
    if (p.from === undefined || p.to === undefined) throw new TimeRangeError("a custom range needs both from and to");
    const from = isoMs(p.from, "from");
    const to = isoMs(p.to, "to");
    if (from >= to) throw new TimeRangeError("from must be before to");
    return { kind: "custom", from, to };
  }
  if (p.range === undefined || p.range === "all") return ALL_TIME;
  if ((RANGE_PRESETS as readonly string[]).includes(p.range)) return { kind: "preset", preset: p.range as RangePreset };
  throw new TimeRangeError(`unknown range "${p.range}": expected one of ${[...RANGE_PRESETS, "all"].join(", ")}, or from and to`);
}

/** As parseRange, but a range that cannot be read is all time (a page shows everything rather than fail). */
export function rangeOrAll(raw: Record<string, string | string[] | undefined>): TimeRange {
  try {
    return parseRange(raw);
  } catch (err) {
    if (err instanceof TimeRangeError) return ALL_TIME;
    throw err;
  }
}

/** The window in ms, [from, to), as of `now`; null for all time. */
export function rangeWindow(range: TimeRange, now: number): { from: number; to: number } | null {
  if (range.kind === "all") return null;
  if (range.kind === "custom") return { from: range.from, to: range.to };
  return { from: now - PRESET_MS[range.preset], to: now };
}

/**
 * The range as search terms (the search's after:/before:), added to a page's fixed query. A preset
 * stays relative (`after:-1h`), so every poll means the last hour as of that poll.
 */
export function rangeQuery(range: TimeRange): string {
  if (range.kind === "all") return "";
  if (range.kind === "preset") return `after:-${range.preset}`;
  return `after:${new Date(range.from).toISOString()} before:${new Date(range.to).toISOString()}`;
}

/** The range as query parameters (none for all time), for links and forms that keep it. */
export function rangeSearchParams(range: TimeRange): Record<string, string> {
  if (range.kind === "all") return {};
  if (range.kind === "preset") return { range: range.preset };
  return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
}

/** How the picker names a range. */
export function rangeLabel(range: TimeRange): string {
  if (range.kind === "all") return "All time";
  if (range.kind === "preset") return PRESET_LABEL[range.preset];
  const f = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");
  return `${f(range.from)} – ${f(range.to)} UTC`;
}
