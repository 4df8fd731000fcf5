import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import useSWR from "swr";
import type { MessagePage } from "@/lib/model";
import { DEFAULT_POLL_MS, PAGE_SIZE, dedupeFor } from "./config";
import { errorMessage, fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";
import { appendOlder, applyPoll, initTimeline, showPending, type TimelineState } from "./timeline";

type Action =
  | { type: "poll"; page: MessagePage }
  | { type: "older"; page: MessagePage }
  | { type: "show" };

function reducer(state: TimelineState, action: Action): TimelineState {
  switch (action.type) {
    case "poll":
      return applyPoll(state, action.page);
    case "older":
      return appendOlder(state, action.page);
    case "show":
      return showPending(state);
  }
}

interface Options {
  /** The effective query (already including any fixed part such as `agent:name`). */
  q: string;
  /** The first page, rendered by the server. */
  initial: MessagePage;
  pollMs?: number;
  pageSize?: number;
  /** A state saved when the reader left (Back returns to it); it replaces `initial`. */
  restored?: TimelineState | null;
}

/**
 * A live timeline: polls `?q=…&since=seq`, updates shown messages in place, holds new ones
 * back until `showPending()`, and pages older messages in with `loadOlder()`.
 */
export function useMessagePoll({ q, initial, pollMs = DEFAULT_POLL_MS, pageSize = PAGE_SIZE, restored = null }: Options) {
  const [state, dispatch] = useReducer(reducer, initial, (page) => restored ?? initTimeline(page));

  // The poll's key stays the same; the fetcher reads the latest seq from here.
  const seqRef = useRef(state.seq);
  useEffect(() => {
    seqRef.current = state.seq;
  }, [state.seq]);

  const poll = useSWR<MessagePage, ApiClientError | Error>(
    keys.messagePoll(q),
    ([, query]: readonly [string, string]) => fetchJson<MessagePage>(keys.messages({ q: query, since: seqRef.current })),
    {
      refreshInterval: pollMs,
      dedupingInterval: dedupeFor(pollMs),
      onSuccess: (page) => dispatch({ type: "poll", page }),
    },
  );

  const [older, setOlder] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const loadingRef = useRef(false);
  const cursor = state.nextCursor;
  const loadOlder = useCallback(async () => {
    if (cursor === null || loadingRef.current) return;
    loadingRef.current = true;
    setOlder({ loading: true, error: null });
    try {
      const page = await fetchJson<MessagePage>(keys.messages({ q, cursor, limit: pageSize }));
      dispatch({ type: "older", page });
      setOlder({ loading: false, error: null });
    } catch (err) {
      setOlder({ loading: false, error: errorMessage(err) });
    } finally {
      loadingRef.current = false;
    }
  }, [cursor, q, pageSize]);

  const show = useCallback(() => dispatch({ type: "show" }), []);

  return {
    state,
    items: state.items,
    pendingCount: state.pending.length,
    showPending: show,
    hasOlder: cursor !== null,
    loadOlder,
    loadingOlder: older.loading,
    olderError: older.error,
    pollError: poll.error,
  };
}
