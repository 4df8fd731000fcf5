import "server-only";
import { bucketFor, bucketStarts, stack, type ChartWindow, type Charts, type HopChart, type StackedChart } from "@/lib/chart-model";
import { DEAD_LETTER_FOLDER, PROTOCOLS, type Protocol } from "@/lib/model";
import type { HopDefinition, HopPoint, ProtocolCatalog } from "@/lib/protocols/types";
import type { Db } from "./db";
import { FILE_LIFE } from "./file-life";
import { FAILURE_EVENT_SQL, FAILURE_EVENT_STATUSES, HOUR_MS, NO_TYPE } from "./schema-sql";

// The charts of the overview and an agent's page, each one SQL query over the journal: messages
// per bucket by agent and by type, failures per bucket, and each protocol's hops (its catalog's
// `hops`, which the caller hands in: the journal reads no protocol's words) as percentiles. Every
// query reads only the window asked for, through an index on its time (migration 20 for the
// events); bench figures in README "Charts". Bucket numbers are CAST: better-sqlite3 binds a JS
// number as a REAL, and a REAL division would not cut into buckets.

export interface ChartQuery {
  /** The window; null: from the oldest message to now. */
  window: { from: number; to: number } | null;
  /** Only this agent's messages (and their events). */
  agent?: string;
  now?: number;
}

/**
 * The window charted: the one asked for, or all of the journal's messages (24 h when it has
 * none), widened to whole buckets (bars start on the hour, the quarter hour…, in UTC).
 */
export function chartWindow(db: Db, q: ChartQuery): ChartWindow {
  const now = Math.floor(q.now ?? Date.now());
  const oldest = q.window ? null : (db.prepare("SELECT min(sort_ms) FROM messages").pluck().get() as number | null);
  const from = Math.floor(q.window?.from ?? Math.min(oldest ?? now - 86_400_000, now - 60_000));
  const to = Math.max(from + 1, Math.floor(q.window?.to ?? now + 1));
  const bucketMs = bucketFor(to - from);
  return { from: Math.floor(from / bucketMs) * bucketMs, to: Math.ceil(to / bucketMs) * bucketMs, bucketMs };
}

type BucketRow = { b: number; name: string; n: number };

/**
 * Messages per bucket of their date, grouped by `column` (agent or type); dead letters are copies,
 * not messages sent. Buckets of whole hours (ranges of 5 days and more) are sums of the counts per
 * hour that migration 22's triggers keep: at 100,000 messages, counting the rows per hour took
 * 50.8 ms p95 on the quiet 2-core bench machine. One agent's messages are few enough to count.
 */
export function countsBy(db: Db, w: ChartWindow, column: "agent" | "type", agent?: string): StackedChart {
  const buckets = bucketStarts(w);
  if (agent === undefined && w.bucketMs % HOUR_MS === 0 && w.from % HOUR_MS === 0) {
    const rows = db
      .prepare(
        `SELECT CAST((hour - ?) / ? AS INTEGER) AS b, ${column} AS name, SUM(n) AS n FROM hour_${column}_counts
         WHERE hour >= ? AND hour < ? GROUP BY 1, 2 HAVING SUM(n) > 0`,
      )
      .all(w.from / HOUR_MS, w.bucketMs / HOUR_MS, w.from / HOUR_MS, Math.ceil(w.to / HOUR_MS)) as BucketRow[];
    return { buckets, series: stack(rows, buckets.length) };
  }
  const rows = db
    .prepare(
      `SELECT CAST((sort_ms - ?) / ? AS INTEGER) AS b, ${column === "type" ? `coalesce(type, '${NO_TYPE}')` : "agent"} AS name, COUNT(*) AS n FROM messages
       WHERE sort_ms >= ? AND sort_ms < ? AND folder != '${DEAD_LETTER_FOLDER}'${agent === undefined ? "" : " AND agent = ?"} GROUP BY 1, 2`,
    )
    .all(w.from, w.bucketMs, w.from, w.to, ...(agent === undefined ? [] : [agent])) as BucketRow[];
  return { buckets, series: stack(rows, buckets.length) };
}

/** An event that moved a message into one of `statuses`: a status event "a → b", or a move whose detail ends "(a → b)". */
function becameSql(alias: string, statuses: readonly string[]): { sql: string; params: string[] } {
  return { sql: `(${statuses.map(() => `rtrim(${alias}.detail, ')') GLOB ?`).join(" OR ")})`, params: statuses.map((s) => `*→ ${s}`) };
}

/**
 * Messages that failed, per bucket of the event and per failed status: a dead letter written
 * (dead-lettered) or a status event or move into a failed status. A message counts once per bucket
 * and status (IGNITE journals a dead letter as both events). FAILURE_EVENT_SQL is what migration 20
 * indexes: only those events are read.
 */
export function failures(db: Db, w: ChartWindow, agent?: string): StackedChart {
  const cases = FAILURE_EVENT_STATUSES.map(() => `WHEN rtrim(detail, ')') GLOB ? THEN ?`).join(" ");
  const caseParams = FAILURE_EVENT_STATUSES.flatMap((s) => [`*→ ${s}`, s]);
  const rows = db
    .prepare(
      `SELECT b, name, COUNT(DISTINCT key) AS n FROM (
         SELECT CAST((at_ms - ?) / ? AS INTEGER) AS b, e.key, CASE WHEN kind = 'dead-lettered' THEN ? ${cases} END AS name
         FROM events e${agent === undefined ? "" : " JOIN messages m ON m.key = e.key AND m.agent = ?"}
         WHERE ${FAILURE_EVENT_SQL} AND at_ms >= ? AND at_ms < ?
       ) WHERE name IS NOT NULL GROUP BY 1, 2`,
    )
    .all(w.from, w.bucketMs, FILE_LIFE.held, ...caseParams, ...(agent === undefined ? [] : [agent]), w.from, w.to) as BucketRow[];
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
type HopRow = { hop: number; b: number; n: number | null; p50: number | null; p90: number | null; p99: number | null };

/**
 * Hop times come from about this many messages of the window at most (1 in `every`, by id):
 * pairing the events of all 100,000 messages of a window took 4 s on the loaded 2-core test
 * machine, of 4,000 still 0.8 s, of 1,500 143 ms (p50, bench; three index lookups each). 1,000
 * durations still give a p99 from 10 values above it; per bucket the percentiles are rougher,
 * and the chart says it was sampled.
 */
export const HOP_SAMPLE = 1000;

/**
 * The messages of the window, dead letters aside: its whole hours from migration 22's counts per
 * hour, its ends from the index by time. Counting a mixed tree's 100,000 messages of one week
 * from the index alone read all of them: 10 ms of CPU, a fifth of the hop charts' budget.
 */
function windowCount(db: Db, w: ChartWindow, agent?: string): number {
  const [firstHour, endHour] = [Math.ceil(w.from / HOUR_MS), Math.floor(w.to / HOUR_MS)];
  const byAgent = agent === undefined ? [] : [agent];
  const byTime = db.prepare(
    `SELECT count(*) FROM messages WHERE sort_ms >= ? AND sort_ms < ? AND folder != '${DEAD_LETTER_FOLDER}'${agent === undefined ? "" : " AND agent = ?"}`,
  ).pluck();
  if (firstHour >= endHour) return byTime.get(w.from, w.to, ...byAgent) as number;
  const hours = db
    .prepare(`SELECT coalesce(sum(n), 0) FROM hour_agent_counts WHERE hour >= ? AND hour < ?${agent === undefined ? "" : " AND agent = ?"}`)
    .pluck()
    .get(firstHour, endHour, ...byAgent) as number;
  return hours + (byTime.get(w.from, firstHour * HOUR_MS, ...byAgent) as number) + (byTime.get(endHour * HOUR_MS, w.to, ...byAgent) as number);
}

/** How many messages of the window one sampled message stands for. */
export function hopSampling(db: Db, w: ChartWindow, agent?: string): number {
  return Math.max(1, Math.ceil(windowCount(db, w, agent) / HOP_SAMPLE));
}

/**
 * The sample is found by looking up the ids 1 in `every` stands for when there are at most this
 * many (a mixed tree's 100,000 messages of one week: 1,000 lookups instead of reading 100,000
 * index entries, 15 ms of CPU), else by reading the window from the index by time.
 */
const PROBES_AT_MOST = 4 * HOP_SAMPLE;

/** One hop of one protocol: a chart of the hops panel. */
export interface ProtocolHop {
  protocol: Protocol;
  hop: HopDefinition;
}

/**
 * The SQL of hopsOf, and its parameters for a window and sampling. The sampled messages' events
 * are read once (one index range each) and every hop of every protocol is paired over that small
 * set: at 100,000 messages, a query per hop that sampled the window and looked the events up again
 * took 19–21 ms a hop (p50, loaded 2-core machine), IGNITE's two hops and the count 46 ms in all;
 * the scan that samples the window is most of it, and is now paid once.
 */
export function hopSql(
  hops: readonly ProtocolHop[],
  agent?: string,
  probe = false,
): { sql: string; params: (w: ChartWindow, every: number, maxId?: number) => unknown[] } {
  const pick = (rn: string, n: string) => PERCENTILES.map((p) => `MIN(CASE WHEN ${rn} * 100 >= ${p} * ${n} THEN d END) AS p${p}`).join(", ");
  const paired = hops.map(({ protocol, hop }, i) => {
    const start = pointSql("s", hop.start);
    const end = pointSql("x", hop.end);
    return {
      sql: `SELECT ${i} AS hop, CAST((t.sort_ms - ?) / ? AS INTEGER) AS b, MIN(x.at_ms) - t.t0 AS d
         FROM (SELECT s.key, s.sort_ms, MIN(s.at_ms) AS t0 FROM ev s WHERE s.protocol = ? AND ${start.sql} GROUP BY s.key) t
         JOIN ev x ON x.key = t.key AND x.at_ms >= t.t0 AND ${end.sql} GROUP BY t.key`,
      params: [protocol, ...start.params, ...end.params],
    };
  });
  const inWindow = (m: string) => `${m}sort_ms >= ? AND ${m}sort_ms < ? AND ${m}folder != '${DEAD_LETTER_FOLDER}'${agent === undefined ? "" : ` AND ${m}agent = ?`}`;
  // CROSS JOIN keeps these orders: the planner otherwise scanned every message for the sampled ids.
  const sampled = probe
    ? `WITH RECURSIVE probe (id) AS (SELECT ? UNION ALL SELECT id + ? FROM probe WHERE id + ? <= ?),
     sample AS MATERIALIZED (
       SELECT m.key, m.sort_ms, m.protocol FROM probe CROSS JOIN messages m ON m.id = probe.id WHERE ${inWindow("m.")}
     ),`
    : `WITH picked AS MATERIALIZED (SELECT id FROM messages WHERE ${inWindow("")} AND id % ? = 0),
     sample AS MATERIALIZED (
       SELECT m.key, m.sort_ms, m.protocol FROM picked CROSS JOIN messages m ON m.id = picked.id
     ),`;
  const sql = `${sampled}
     ev AS MATERIALIZED (
       SELECT sample.key, sample.sort_ms, sample.protocol, e.kind, e.detail, e.at_ms FROM sample CROSS JOIN events e ON e.key = sample.key
     ),
     durations AS MATERIALIZED (${paired.map((p) => p.sql).join("\n       UNION ALL ")}),
     ranked AS (
       SELECT hop, b, d, ROW_NUMBER() OVER (PARTITION BY hop, b ORDER BY d) AS rn, COUNT(*) OVER (PARTITION BY hop, b) AS n,
         ROW_NUMBER() OVER (PARTITION BY hop ORDER BY d) AS rn_all, COUNT(*) OVER (PARTITION BY hop) AS n_all
       FROM durations WHERE d IS NOT NULL
     )
     SELECT hop, b, MAX(n) AS n, ${pick("rn", "n")} FROM ranked GROUP BY hop, b
     UNION ALL
     SELECT hop, -1, MAX(n_all), ${pick("rn_all", "n_all")} FROM ranked GROUP BY hop`;
  return {
    sql,
    params: (w, every, maxId = 0) => [
      ...(probe ? [every, every, every, maxId, w.from, w.to] : [w.from, w.to]),
      ...(agent === undefined ? [] : [agent]),
      ...(probe ? [] : [every]),
      ...paired.flatMap((p) => [w.from, w.bucketMs, ...p.params]),
    ],
  };
}

/**
 * Hop charts, each from the message's first start event to its first end event at or after it,
 * for its protocol's messages dated in the window (1 in `every`); nearest-rank percentiles per
 * bucket of the message's date and over the window. A hop not finished is not counted.
 */
export function hopsOf(db: Db, w: ChartWindow, hops: readonly ProtocolHop[], agent?: string, every = 1): HopChart[] {
  if (hops.length === 0) return [];
  const maxId = (db.prepare("SELECT max(id) FROM messages").pluck().get() as number | null) ?? 0;
  const q = hopSql(hops, agent, maxId / every <= PROBES_AT_MOST);
  const rows = db.prepare(q.sql).all(...q.params(w, every, maxId)) as HopRow[];
  const buckets = bucketStarts(w);
  return hops.map(({ protocol, hop }, i) => {
    const series = { p50: buckets.map((): number | null => null), p90: buckets.map((): number | null => null), p99: buckets.map((): number | null => null) };
    let overall: HopChart["overall"] = { n: 0, p50: null, p90: null, p99: null };
    for (const r of rows) {
      if (r.hop !== i) continue;
      if (r.b === -1) overall = { n: r.n ?? 0, p50: r.p50, p90: r.p90, p99: r.p99 };
      else if (r.b >= 0 && r.b < buckets.length) for (const p of PERCENTILES) series[`p${p}`][r.b] = r[`p${p}`];
    }
    return { protocol, hop: hop.id, label: hop.label, buckets, ...series, overall, sampledEvery: every };
  });
}

/** One hop's chart (hopsOf that hop alone). */
export function hopChart(db: Db, w: ChartWindow, protocol: Protocol, hop: HopDefinition, agent?: string, every = 1): HopChart {
  const [chart] = hopsOf(db, w, [{ protocol, hop }], agent, every);
  if (!chart) throw new Error("hopsOf answers one chart per hop");
  return chart;
}

/** The hops each protocol's catalog charts (CATALOGS, through lib/protocols). */
export type ProtocolHops = readonly Pick<ProtocolCatalog, "protocol" | "hops">[];

/** Every hop of the configured sources' protocols that a message of the window made. */
export function hopCharts(db: Db, w: ChartWindow, hops: ProtocolHops, agent?: string): HopChart[] {
  const charted = protocolsOf(db).flatMap((protocol) => (hops.find((c) => c.protocol === protocol)?.hops ?? []).map((hop) => ({ protocol, hop })));
  return hopsOf(db, w, charted, agent, hopSampling(db, w, agent)).filter((h) => h.overall.n > 0);
}

/** The protocols charted: the configured sources'. */
function protocolsOf(db: Db): Protocol[] {
  const found = db.prepare("SELECT DISTINCT protocol FROM sources").pluck().all() as string[];
  return PROTOCOLS.filter((p) => found.includes(p));
}

export const CHART_NAMES = ["byAgent", "byType", "failures", "hops"] as const;
export type ChartName = (typeof CHART_NAMES)[number];

const CHARTS: { [K in ChartName]: (db: Db, w: ChartWindow, agent: string | undefined, hops: ProtocolHops) => Charts[K] } = {
  byAgent: (db, w, agent) => countsBy(db, w, "agent", agent),
  byType: (db, w, agent) => countsBy(db, w, "type", agent),
  failures,
  hops: (db, w, agent, hops) => hopCharts(db, w, hops, agent),
};

/** Every chart of the window and agent asked for; `hops`: what each protocol's hop charts time. */
export function queryCharts(db: Db, q: ChartQuery, hops: ProtocolHops): Charts {
  const w = chartWindow(db, q);
  const [a, h] = [q.agent, hops];
  return { window: w, byAgent: CHARTS.byAgent(db, w, a, h), byType: CHARTS.byType(db, w, a, h), failures: CHARTS.failures(db, w, a, h), hops: CHARTS.hops(db, w, a, h) };
}

export type ChartsAnswer = Partial<Charts> & Pick<Charts, "window">;

/** One chart: the bench times each chart's query on its own. */
export function queryChart(db: Db, q: ChartQuery, only: ChartName, hops: ProtocolHops): ChartsAnswer {
  const w = chartWindow(db, q);
  return { window: w, [only]: CHARTS[only](db, w, q.agent, hops) };
}
