import useSWR from "swr";
import type { Stats } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Agents × status counts, polled. `initial` comes from the server render. */
export function useStats(initial: Stats, pollMs: number = DEFAULT_POLL_MS) {
  return useSWR<Stats, ApiClientError | Error>(keys.stats, fetchJson<Stats>, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
  });
}
