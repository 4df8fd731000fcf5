import { useState } from "react";
import useSWR from "swr";
import { threadEtag, type ThreadDetail } from "@/lib/threads/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { ApiClientError, toApiClientError } from "./fetcher";
import { keys } from "./keys";

/** A fetcher that asks "changed since?" (If-None-Match) and keeps the same object on a 304. */
function conditionalFetcher(initial: ThreadDetail) {
  let last = { etag: threadEtag(initial), data: initial };
  return async (url: string): Promise<ThreadDetail> => {
    const res = await fetch(url, { headers: { accept: "application/json", "if-none-match": last.etag }, cache: "no-store" });
    if (res.status === 304) return last.data;
    if (!res.ok) throw await toApiClientError(res);
    const data = (await res.json()) as ThreadDetail;
    last = { etag: res.headers.get("etag") ?? threadEtag(data), data };
    return data;
  };
}

/** One thread with its messages, edges and branches, polled so it grows as agents write. */
export function useThread(id: string, initial: ThreadDetail, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher(initial));
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
