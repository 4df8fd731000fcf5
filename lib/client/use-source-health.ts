import useSWR from "swr";
import type { SourceHealthItem } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/**
 * Whether each workspace's agents' system runs, as its state files say; polled. `initial`: the
 * server render's, so the page is drawn with it (fetched only after hydration, the overview's team
 * health pushed everything below it 142 px down, 412 px on a phone).
 */
export function useSourceHealth(pollMs: number = DEFAULT_POLL_MS, initial: SourceHealthItem[] | null = null) {
  const res = useSWR<{ sources: SourceHealthItem[] }, ApiClientError | Error>(keys.sourceHealth, fetchJson<{ sources: SourceHealthItem[] }>, {
    fallbackData: initial ? { sources: initial } : undefined,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
  });
  return { ...res, sources: res.data?.sources ?? null };
}
