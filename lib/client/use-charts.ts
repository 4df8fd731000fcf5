import useSWR from "swr";
import type { Charts } from "@/lib/chart-model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/**
 * Charts poll this many times slower than the lists: each answer runs five queries over the
 * range, and a bar is at least 15 s wide, so polling as often as a list would redraw nothing new.
 */
export const CHART_POLL_FACTOR = 5;

/** The charts of a range (and agent), polled; `initial` comes from the server render. */
export function useCharts(params: Record<string, string>, initial: Charts, pollMs: number = DEFAULT_POLL_MS) {
  return useSWR<Charts, ApiClientError | Error>(keys.charts(params), fetchJson<Charts>, {
    fallbackData: initial,
    refreshInterval: pollMs * CHART_POLL_FACTOR,
    dedupingInterval: dedupeFor(pollMs),
  });
}
