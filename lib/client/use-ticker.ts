import { useRef, useState } from "react";
import useSWR from "swr";
import type { MessagePage, MessageSummary } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";
import { mergeTicker, TICKER_SIZE } from "./presenter";

/** The latest few messages of every protocol, newest first: polls `?since=seq` and merges what changed. */
export function useTicker(initial: MessagePage, pollMs: number = DEFAULT_POLL_MS) {
  const [items, setItems] = useState<MessageSummary[]>(() => initial.items.slice(0, TICKER_SIZE));
  // The poll's key stays the same; the fetcher reads the latest seq from here.
  const seq = useRef(initial.seq);
  const res = useSWR<{ page: MessagePage; fresh: boolean }, ApiClientError | Error>(
    "presenter-ticker",
    async () => {
      const page = await fetchJson<MessagePage>(keys.messages({ since: seq.current }));
      // More changed than one answer holds: those are not the newest, so load the newest afresh.
      if (page.more) return { page: await fetchJson<MessagePage>(keys.messages({ limit: TICKER_SIZE })), fresh: true };
      return { page, fresh: false };
    },
    {
      refreshInterval: pollMs,
      dedupingInterval: dedupeFor(pollMs),
      onSuccess: ({ page, fresh }) => {
        seq.current = Math.max(seq.current, page.seq);
        setItems((old) => (fresh ? page.items.slice(0, TICKER_SIZE) : mergeTicker(old, page)));
      },
    },
  );
  return { ...res, items };
}
