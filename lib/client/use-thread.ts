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
