// The fixed query set every bench mode times against GET /api/messages: filters of every kind,
// full-text search, and deep paging. Each query QUERY_RUNS times; p50/p95 per query.
import { percentile, timedJson } from "./measure";

export const QUERIES = [
  "", "from:coordinator", "to:ignitian_3", "agent:leader", "type:task_assignment", "priority:high", "status:delivered",
  "folder:processed", "thread:thr_42", "repo:owner/repo", "issue:7", "mid:<176722560000.1000.0@ignite.local>", "path:leader/processed",
  "retries>0", "is:stuck", "has:problem", "after:2026-01-10 before:2026-01-20", "after:-1h",
  "agent:leader type:task_assignment status:delivered", "-status:delivered priority:high",
  "骨組み", "README 骨組み 作成", '"インストール手順"',
];

export const QUERY_BUDGET_P95_MS = 50;

/** Runs per query: a p95 of 20 runs was the second slowest, one spike; of 200, the tenth. */
export const QUERY_RUNS = 200;

/**
 * Each chart's query on its own (README "Charts": p95 ≤ 50 ms at 100,000 messages): over all the
 * generated messages (the window from the oldest to now), one week of them, and one agent's.
 */
export const CHART_QUERIES = ["", "&from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z", "&agent=leader"].flatMap((range) =>
  ["byAgent", "byType", "failures", "hops"].map((chart) => `/api/charts?chart=${chart}${range}`),
);

export interface Latency {
  p50: number;
  p95: number;
  /** How many runs the percentiles are of. */
  runs: number;
  /** The server refused the query (a 400: e.g. a filter it does not know yet); no figures. */
  refused?: string;
}

/** The server's own words for a 400, cut to fit a table row. */
function refusal(message: string): string {
  const json = message.slice(message.indexOf(": 400 ") + 6);
  let said = json;
  try {
    said = (JSON.parse(json) as { error: { message: string } }).error.message;
  } catch {
    // not the API's error shape: shown as it came
  }
  return said.length > 70 ? `${said.slice(0, 69)}…` : said;
}

/** A search of the timeline, or (starting with /api/) a URL of its own, such as a chart. */
const urlOf = (base: string, q: string) => (q.startsWith("/api/") ? `${base}${q}` : `${base}/api/messages?q=${encodeURIComponent(q)}`);

async function timeQuery(base: string, q: string): Promise<Latency> {
  const runs: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    try {
      runs.push((await timedJson(urlOf(base, q))).ms);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (i === 0 && /: 400 /.test(message)) return { p50: NaN, p95: NaN, runs: 0, refused: refusal(message) };
      throw err;
    }
  }
  return { p50: percentile(runs, 50), p95: percentile(runs, 95), runs: runs.length };
}

export async function queryLatencies(base: string, queries: readonly string[] = QUERIES): Promise<Record<string, Latency>> {
  const latency: Record<string, Latency> = {};
  for (const q of queries) latency[q || "(everything)"] = await timeQuery(base, q);
  // Deep paging: the newest 40 pages of 500, walked again until the runs add up.
  const deep: number[] = [];
  while (deep.length < QUERY_RUNS) {
    let cursor: string | null = null;
    for (let page = 0; page < 40 && deep.length < QUERY_RUNS; page++) {
      const r: { ms: number; body: unknown } = await timedJson(`${base}/api/messages?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      deep.push(r.ms);
      cursor = (r.body as { nextCursor: string | null }).nextCursor;
      if (!cursor) break;
    }
  }
  latency["deep paging (500/page, up to 40 pages deep)"] = { p50: percentile(deep, 50), p95: percentile(deep, 95), runs: deep.length };
  return latency;
}

/** One line per query, as the table prints it; OVER when its p95 is over the budget. */
export function latencyLine(q: string, l: Latency, budget: number = QUERY_BUDGET_P95_MS): string {
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  const what = (q.startsWith("/api/") ? `GET ${q}` : `GET /api/messages ${q}`).padEnd(70);
  if (l.refused) return `${what} refused: ${l.refused}`;
  const over = l.p95 > budget ? `  OVER ${budget} ms` : "";
  return `${what} p50 ${f(l.p50).padStart(9)}  p95 ${f(l.p95).padStart(9)}  (${l.runs} runs)${over}`;
}
