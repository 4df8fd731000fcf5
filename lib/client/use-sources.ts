import useSWR from "swr";
import type { SourceInfo } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

interface SourcesResponse {
  sources: SourceInfo[];
}

function settled(data: SourcesResponse | undefined): boolean {
  return data !== undefined && data.sources.every((s) => s.indexing.done && s.indexing.fullText !== false && s.error === null);
}

/** The configured workspaces and their indexing progress. Polls fast while indexing, slowly after. */
export function useSources(initial: SourceInfo[], pollMs: number = DEFAULT_POLL_MS) {
  const res = useSWR<SourcesResponse, ApiClientError | Error>(keys.sources, fetchJson<SourcesResponse>, {
    fallbackData: { sources: initial },
    refreshInterval: (latest) => (settled(latest) ? pollMs * 5 : pollMs),
    dedupingInterval: dedupeFor(pollMs),
  });
  return { ...res, sources: res.data?.sources ?? initial };
}
