import useSWR from "swr";
import type { SourceHealthItem } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Whether each workspace's agents' system runs, as its state files say; polled. */
export function useSourceHealth(pollMs: number = DEFAULT_POLL_MS) {
  const res = useSWR<{ sources: SourceHealthItem[] }, ApiClientError | Error>(keys.sourceHealth, fetchJson<{ sources: SourceHealthItem[] }>, {
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
  });
  return { ...res, sources: res.data?.sources ?? null };
}
