import "server-only";
import { bucketFor, bucketStarts, stack, type ChartWindow, type Charts, type HopChart, type StackedChart } from "@/lib/chart-model";
import { PROTOCOLS, type Protocol } from "@/lib/model";
import { CATALOGS, catalogOf } from "@/lib/protocols/catalog";
import type { HopDefinition, HopPoint } from "@/lib/protocols/catalog-types";
import type { Db } from "./db";

// The charts of the overview and an agent's page, each one SQL query over the journal: messages
// per bucket by agent and by type, failures per bucket, and each protocol's hops (catalog.ts
// `hops`) as percentiles. Every query reads only the window asked for, through an index on its
// time (migration 20 for the events); bench figures in README "Charts". Bucket numbers are CAST:
// better-sqlite3 binds a JS number as a REAL, and a REAL division would not cut into buckets.

export interface ChartQuery {
  /** The window; null: from the oldest message to now. */
  window: { from: number; to: number } | null;
  /** Only this agent's messages (and their events). */
  agent?: string;
  now?: number;
}

/** Every status word a protocol calls a failure (error, dead, invalid, failed…), each once. */
export const FAILED_STATUSES: readonly string[] = [...new Set(CATALOGS.flatMap((c) => c.statuses.filter((s) => s.state === "failed").map((s) => s.id)))];

/** The window charted: the one asked for, or all of the journal's messages (24 h when it has none). */
export function chartWindow(db: Db, q: ChartQuery): ChartWindow {
  const now = Math.floor(q.now ?? Date.now());
  const oldest = q.window ? null : (db.prepare("SELECT min(sort_ms) FROM messages").pluck().get() as number | null);
  const from = Math.floor(q.window?.from ?? Math.min(oldest ?? now - 86_400_000, now - 60_000));
  const to = Math.max(from + 1, Math.floor(q.window?.to ?? now + 1));
  return { from, to, bucketMs: bucketFor(to - from) };
}

type BucketRow = { b: number; name: string; n: number };

/** Messages per bucket of their date, grouped by `column` (agent or type); dead letters are copies, not messages sent. */
export function countsBy(db: Db, w: ChartWindow, column: "agent" | "type", agent?: string): StackedChart {
  const name = column === "type" ? "coalesce(type, '(no type)')" : "agent";
  const rows = db
    .prepare(
      `SELECT CAST((sort_ms - ?) / ? AS INTEGER) AS b, ${name} AS name, COUNT(*) AS n FROM messages
       WHERE sort_ms >= ? AND sort_ms < ? AND folder != 'dead_letter'${agent === undefined ? "" : " AND agent = ?"} GROUP BY 1, 2`,
    )
    .all(w.from, w.bucketMs, w.from, w.to, ...(agent === undefined ? [] : [agent])) as BucketRow[];
  const buckets = bucketStarts(w);
  return { buckets, series: stack(rows, buckets.length) };
}

/** An event that moved a message into one of `statuses`: a status event "a → b", or a move whose detail ends "(a → b)". */
function becameSql(alias: string, statuses: readonly string[]): { sql: string; params: string[] } {
  return { sql: `(${statuses.map(() => `rtrim(${alias}.detail, ')') GLOB ?`).join(" OR ")})`, params: statuses.map((s) => `*→ ${s}`) };
}

/**
 * Messages that failed, per bucket of the event and per failed status: a dead letter written
 * (dead-lettered) or a status event into a failed status. A message counts once per bucket and
 * status (IGNITE journals a dead letter as both events).
 */
export function failures(db: Db, w: ChartWindow, agent?: string): StackedChart {
  const cases = FAILED_STATUSES.map(() => `WHEN rtrim(e.detail, ')') GLOB ? THEN ?`).join(" ");
  const caseParams = FAILED_STATUSES.flatMap((s) => [`*→ ${s}`, s]);
  const rows = db
    .prepare(
      `SELECT b, name, COUNT(DISTINCT key) AS n FROM (
         SELECT CAST((e.at_ms - ?) / ? AS INTEGER) AS b, e.key, CASE WHEN e.kind = 'dead-lettered' THEN 'dead' ${cases} END AS name
         FROM events e${agent === undefined ? "" : " JOIN messages m ON m.key = e.key AND m.agent = ?"}
         WHERE e.kind IN ('dead-lettered', 'status', 'moved') AND e.at_ms >= ? AND e.at_ms < ?
       ) WHERE name IS NOT NULL GROUP BY 1, 2`,
    )
    .all(w.from, w.bucketMs, ...caseParams, ...(agent === undefined ? [] : [agent]), w.from, w.to) as BucketRow[];
  const buckets = bucketStarts(w);
  return { buckets, series: stack(rows, buckets.length) };
}

function pointSql(alias: string, p: HopPoint): { sql: string; params: string[] } {
  const kinds = `${alias}.kind IN (${p.kinds.map(() => "?").join(", ")})`;
  if (!p.to?.length) return { sql: kinds, params: [...p.kinds] };
  const to = becameSql(alias, p.to);
  return { sql: `${kinds} AND ${to.sql}`, params: [...p.kinds, ...to.params] };
}

const PERCENTILES = [50, 90, 99] as const;
type HopRow = { b: number; n: number | null; p50: number | null; p90: number | null; p99: number | null };

/**
 * One hop's durations: for each message of the protocol whose hop started in the window, from its
 * first start event to the first end event at or after it; nearest-rank percentiles per bucket
 * of the start and over the window (b = -1). A hop not finished yet is not counted.
 */
export function hopChart(db: Db, w: ChartWindow, protocol: Protocol, hop: HopDefinition, agent?: string): HopChart {
  const start = pointSql("s", hop.start);
  const end = pointSql("x", hop.end);
  const pick = (rn: string, n: string) => PERCENTILES.map((p) => `MIN(CASE WHEN ${rn} * 100 >= ${p} * ${n} THEN d END) AS p${p}`).join(", ");
  const rows = db
    .prepare(
      `WITH starts AS MATERIALIZED (
         SELECT s.key, MIN(s.at_ms) AS t0 FROM events s JOIN messages m ON m.key = s.key
         WHERE ${start.sql} AND s.at_ms >= ? AND s.at_ms < ? AND m.protocol = ?${agent === undefined ? "" : " AND m.agent = ?"}
         GROUP BY s.key
       ),
       durations AS MATERIALIZED (
         SELECT CAST((t0 - ?) / ? AS INTEGER) AS b, (SELECT MIN(x.at_ms) FROM events x WHERE x.key = starts.key AND x.at_ms >= starts.t0 AND ${end.sql}) - t0 AS d
         FROM starts
       ),
       ranked AS (
         SELECT b, d, ROW_NUMBER() OVER (PARTITION BY b ORDER BY d) AS rn, COUNT(*) OVER (PARTITION BY b) AS n,
           ROW_NUMBER() OVER (ORDER BY d) AS rn_all, COUNT(*) OVER () AS n_all
         FROM durations WHERE d IS NOT NULL
       )
       SELECT b, MAX(n) AS n, ${pick("rn", "n")} FROM ranked GROUP BY b
       UNION ALL
       SELECT -1, MAX(n_all), ${pick("rn_all", "n_all")} FROM ranked`,
    )
    .all(...start.params, w.from, w.to, protocol, ...(agent === undefined ? [] : [agent]), w.from, w.bucketMs, ...end.params) as HopRow[];
  const buckets = bucketStarts(w);
  const series = { p50: buckets.map((): number | null => null), p90: buckets.map((): number | null => null), p99: buckets.map((): number | null => null) };
  let overall: HopChart["overall"] = { n: 0, p50: null, p90: null, p99: null };
  for (const r of rows) {
    if (r.b === -1) overall = { n: r.n ?? 0, p50: r.p50, p90: r.p90, p99: r.p99 };
    else if (r.b >= 0 && r.b < buckets.length) for (const p of PERCENTILES) series[`p${p}`][r.b] = r[`p${p}`];
  }
  return { protocol, hop: hop.id, label: hop.label, buckets, ...series, overall };
}

/** The protocols charted: the configured sources'. */
function protocolsOf(db: Db): Protocol[] {
  const found = db.prepare("SELECT DISTINCT protocol FROM sources").pluck().all() as string[];
  return PROTOCOLS.filter((p) => found.includes(p));
}

/** Every chart; a hop no message made in the window is left out. */
export function queryCharts(db: Db, q: ChartQuery): Charts {
  const w = chartWindow(db, q);
  const hops = protocolsOf(db)
    .flatMap((p) => catalogOf(p).hops.map((h) => hopChart(db, w, p, h, q.agent)))
    .filter((h) => h.overall.n > 0);
  return { window: w, byAgent: countsBy(db, w, "agent", q.agent), byType: countsBy(db, w, "type", q.agent), failures: failures(db, w, q.agent), hops };
}
