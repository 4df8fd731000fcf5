import { useState } from "react";
import useSWR from "swr";
import { threadEtag, type ThreadDetail } from "@/lib/threads/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { ApiClientError, conditionalFetcher } from "./fetcher";
import { keys } from "./keys";

/** One thread with its messages, edges and branches, polled so it grows as agents write. */
export function useThread(id: string, initial: ThreadDetail, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher(initial, threadEtag));
  const res = useSWR<ThreadDetail, ApiClientError | Error>(keys.thread(id), fetcher, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
    // A 304 hands back the very same object: nothing re-renders or re-lays out.
    compare: (a, b) => a === b,
  });
  const gone = res.error instanceof ApiClientError && res.error.status === 404;
  return { ...res, thread: res.data ?? initial, gone };
}

/**
 * Whichever thread `id` names as it changes (the presenter's), polled; the last one stays on
 * screen while the next loads. `initial` stands in only for its own thread.
 */
export function useSwitchingThread(id: string | null, initial: ThreadDetail | null, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher<ThreadDetail | null>(initial, (t) => (t ? threadEtag(t) : null)));
  const res = useSWR<ThreadDetail | null, ApiClientError | Error>(id === null ? null : keys.thread(id), fetcher, {
    fallbackData: initial !== null && initial.id === id ? initial : undefined,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
    keepPreviousData: true,
    compare: (a, b) => a === b,
  });
  return { ...res, thread: id === null ? null : (res.data ?? null) };
}
