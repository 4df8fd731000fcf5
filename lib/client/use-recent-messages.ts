import { useEffect, useRef } from "react";
import useSWR from "swr";
import type { MessagePage } from "@/lib/model";
import { RECENT_LIMIT } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/**
 * The latest few messages. It does not poll on its own: pass the journal `seq` of a polled
 * resource (the stats) and the list refetches when that moves.
 */
export function useRecentMessages(initial: MessagePage, seq: number) {
  const res = useSWR<MessagePage, ApiClientError | Error>(keys.messages({ limit: RECENT_LIMIT }), fetchJson<MessagePage>, {
    fallbackData: initial,
    revalidateOnMount: false,
    revalidateOnFocus: false,
  });
  const { mutate } = res;
  const lastSeq = useRef(seq);
  useEffect(() => {
    if (seq === lastSeq.current) return;
    lastSeq.current = seq;
    void mutate();
  }, [seq, mutate]);
  return { ...res, items: (res.data ?? initial).items };
}
