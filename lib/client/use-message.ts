import useSWR from "swr";
import type { MessageDetail } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { ApiClientError, fetchJson, fetchText } from "./fetcher";
import { keys } from "./keys";

/** One message with headers, body and history, polled so status and lifecycle stay current. */
export function useMessage(key: string, initial: MessageDetail, pollMs: number = DEFAULT_POLL_MS) {
  const res = useSWR<MessageDetail, ApiClientError | Error>(keys.message(key), fetchJson<MessageDetail>, {
    fallbackData: initial,
    refreshInterval: pollMs,
    dedupingInterval: dedupeFor(pollMs),
  });
  const gone = res.error instanceof ApiClientError && res.error.status === 404;
  return { ...res, message: res.data ?? initial, gone };
}

/** The file's exact text, fetched only when `enabled` (the raw tab is open). */
export function useRawMessage(key: string, enabled: boolean) {
  return useSWR<string, ApiClientError | Error>(enabled ? keys.raw(key) : null, fetchText, {
    revalidateOnFocus: false,
  });
}
