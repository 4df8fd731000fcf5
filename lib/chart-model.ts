// What GET /api/charts answers, and the pure helpers both sides use. Safe for client code.
import type { Protocol } from "@/lib/model";

/** The window charted, [from, to), cut into buckets of bucketMs (each bucket named by its start). */
export interface ChartWindow {
  from: number;
  to: number;
  bucketMs: number;
}

/** Counts per bucket, one series per name (an agent, a type, a status), meant to be stacked. */
export interface StackedChart {
  buckets: number[];
  series: { name: string; values: number[] }[];
}

/** A hop's durations (ms) per bucket of its start, as percentiles, and over the whole window. */
export interface HopChart {
  protocol: Protocol;
  hop: string;
  label: string;
  buckets: number[];
  p50: (number | null)[];
  p90: (number | null)[];
  p99: (number | null)[];
  overall: { n: number; p50: number | null; p90: number | null; p99: number | null };
  /** The durations are of 1 in this many of the window's messages (1: all of them). */
  sampledEvery: number;
}

export interface Charts {
  window: ChartWindow;
  byAgent: StackedChart;
  byType: StackedChart;
  failures: StackedChart;
  hops: HopChart[];
}

/** Bucket sizes a reader can name ("per 15 minutes"), smallest first. */
const STEPS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400, 604_800].map((s) => s * 1000);
/**
 * At most this many buckets: a chart ~1000 px wide keeps a bar ≥ 8 px, and a stacked query's
 * result stays ≤ 120 × the series it has.
 */
export const MAX_BUCKETS = 120;

/** The smallest bucket that cuts the span into at most MAX_BUCKETS. */
export function bucketFor(spanMs: number): number {
  return STEPS.find((s) => spanMs / s <= MAX_BUCKETS) ?? Math.ceil(spanMs / MAX_BUCKETS);
}

/** The bucket starts of a window. */
export function bucketStarts(w: ChartWindow): number[] {
  const n = Math.max(1, Math.ceil((w.to - w.from) / w.bucketMs));
  return Array.from({ length: n }, (_, i) => w.from + i * w.bucketMs);
}

/** Series beyond this many are summed into "other": more colours than this cannot be told apart. */
export const MAX_SERIES = 8;
export const OTHER = "other";

/**
 * (bucket index, name, n) rows as stacked series over every bucket, biggest total first; past
 * MAX_SERIES − 1 the smaller ones are summed into OTHER.
 */
export function stack(rows: readonly { b: number; name: string; n: number }[], buckets: number): StackedChart["series"] {
  const byName = new Map<string, number[]>();
  for (const r of rows) {
    if (r.b < 0 || r.b >= buckets) continue;
    const values = byName.get(r.name) ?? new Array<number>(buckets).fill(0);
    byName.set(r.name, values);
    values[r.b] = (values[r.b] ?? 0) + r.n;
  }
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const series = [...byName].map(([name, values]) => ({ name, values })).sort((a, b) => total(b.values) - total(a.values) || a.name.localeCompare(b.name));
  if (series.length <= MAX_SERIES) return series;
  const kept = series.slice(0, MAX_SERIES - 1);
  const other = new Array<number>(buckets).fill(0);
  for (const s of series.slice(MAX_SERIES - 1)) s.values.forEach((v, i) => (other[i] = (other[i] ?? 0) + v));
  return [...kept, { name: OTHER, values: other }];
}

/** A duration for people: 850 ms, 12.5 s, 4.2 min, 3.1 h. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
