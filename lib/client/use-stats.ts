import { useState } from "react";
import useSWR from "swr";
import type { Stats } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { conditionalFetcher, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Agents × status counts, polled; a poll while nothing changed is a 304. `initial` comes from the server render. */
export function useStats(initial: Stats, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher(initial));
  return useSWR<Stats, ApiClientError | Error>(keys.stats, fetcher, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
    // A 304 hands back the very same object: nothing re-renders.
    compare: (a, b) => a === b,
  });
}
