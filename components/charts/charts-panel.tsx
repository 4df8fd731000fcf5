import "server-only";
import { getChartsOfRange } from "@/lib/journal";
import { rangeSearchParams, type TimeRange } from "@/lib/query/range";
import { ChartsSection } from "./charts-section";

/** The charts of a range (and of one agent), first drawn from the server's answer, then live. */
export function ChartsPanel({ range, agent, pollMs }: { range: TimeRange; agent?: string; pollMs: number }) {
  const params = { ...rangeSearchParams(range), ...(agent === undefined ? {} : { agent }) };
  const initial = getChartsOfRange(range, agent);
  return <ChartsSection params={params} initial={initial} pollMs={pollMs} perAgent={agent !== undefined} />;
}
