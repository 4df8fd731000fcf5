import { useState } from "react";
import useSWR from "swr";
import type { ThreadList } from "@/lib/threads/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { conditionalFetcher, fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Every thread (matching `q`), newest activity first, polled (a 304 while nothing changed). `initial` comes from the server render. */
export function useThreads(q: string, initial: ThreadList, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher(initial));
  const res = useSWR<ThreadList, ApiClientError | Error>(keys.threads({ q }), fetcher, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
    keepPreviousData: true,
    // A 304 hands back the very same object: nothing re-renders.
    compare: (a, b) => a === b,
  });
  return { ...res, list: res.data ?? initial };
}

/** The thread that holds one message (header or inferred), fetched once; null while unknown or when none. */
export function useThreadOf(key: string) {
  const res = useSWR<ThreadList, ApiClientError | Error>(keys.threads({ key }), fetchJson<ThreadList>, {
    revalidateOnFocus: false,
  });
  return { ...res, thread: res.data?.items[0] ?? null };
}
