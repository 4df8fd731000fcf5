import useSWR from "swr";
import type { DeadLettersResponse } from "@/lib/actions";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/** Every dead letter on disk with its failure facts, polled. `initial` comes from the server render. */
export function useDeadLetters(initial: DeadLettersResponse, pollMs: number = DEFAULT_POLL_MS) {
  const res = useSWR<DeadLettersResponse, ApiClientError | Error>(keys.deadLetters, fetchJson<DeadLettersResponse>, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
  });
  return { ...res, items: (res.data ?? initial).items };
}
