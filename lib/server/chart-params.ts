import "server-only";
import { z } from "zod";
import { CHART_NAMES, type ChartName } from "@/lib/journal/charts";
import { MAX_AGENT_NAME } from "@/lib/model";
import { parseRange, rangeWindow, TimeRangeError } from "@/lib/query/range";
import { ApiError } from "./errors";
import { parseOr400 } from "./params";

const chartParamsSchema = z.object({
  // Any agent a layout names (an IGNITE queue, a KickLang channel "⫻command/dispatch"): a bound
  // SQL parameter, so only bounded and printable (IGNITE's queue-name pattern refused every channel).
  agent: z.string().min(1, "agent is empty").max(MAX_AGENT_NAME, `agent is longer than ${MAX_AGENT_NAME} characters`).regex(/^[^\p{Cc}]+$/u, "agent holds a control character").optional(),
  chart: z.enum(CHART_NAMES, { error: `chart must be one of ${CHART_NAMES.join(", ")}` }).optional(),
  range: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});

export interface ChartParams {
  window: { from: number; to: number } | null;
  agent?: string;
  chart?: ChartName;
}

/** GET /api/charts's parameters: the range as the pages carry it (lib/query/range.ts), an agent, one chart. Bad ones are a 400 saying why. */
export function parseChartParams(params: Record<string, string>, now: number): ChartParams {
  const p = parseOr400(chartParamsSchema, params);
  try {
    return { window: rangeWindow(parseRange(p), now), agent: p.agent, chart: p.chart };
  } catch (err) {
    if (err instanceof TimeRangeError) throw new ApiError(400, "bad_range", err.message);
    throw err;
  }
}
