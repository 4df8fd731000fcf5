import { useState } from "react";
import useSWR from "swr";
import type { DeadLettersResponse } from "@/lib/actions";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { conditionalFetcher, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Every dead letter on disk with its failure facts, polled (a 304 while nothing changed). `initial` comes from the server render. */
export function useDeadLetters(initial: DeadLettersResponse, pollMs: number = DEFAULT_POLL_MS) {
  const [fetcher] = useState(() => conditionalFetcher(initial));
  const res = useSWR<DeadLettersResponse, ApiClientError | Error>(keys.deadLetters, fetcher, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
    // A 304 hands back the very same object: nothing re-renders.
    compare: (a, b) => a === b,
  });
  return { ...res, items: (res.data ?? initial).items };
}
