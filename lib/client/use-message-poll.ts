import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import useSWR from "swr";
import type { MessagePage } from "@/lib/model";
import { DEFAULT_POLL_MS, PAGE_SIZE, dedupeFor } from "./config";
import { errorMessage, fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";
import { initTimeline, timelineReducer, type TimelineState } from "./timeline";

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
  const [state, dispatch] = useReducer(timelineReducer, initial, (page) => restored ?? initTimeline(page));

  // The poll's key stays the same; the fetcher reads the latest seq from here.
  const seqRef = useRef(state.seq);
  useEffect(() => {
    seqRef.current = state.seq;
  }, [state.seq]);

  const poll = useSWR<{ page: MessagePage; since: number }, ApiClientError | Error>(
    keys.messagePoll(q),
    async ([, query]: readonly [string, string]) => {
      const since = seqRef.current;
      return { page: await fetchJson<MessagePage>(keys.messages({ q: query, since })), since };
    },
    {
      refreshInterval: pollMs,
      dedupingInterval: dedupeFor(pollMs),
      onSuccess: ({ page, since }) => dispatch({ type: "poll", page, since }),
    },
  );

  const { load: loadOlderPage, ...older } = usePageLoad(useCallback((page: MessagePage, from: string | null) => dispatch({ type: "older", page, from }), []));
  const cursor = state.nextCursor;
  const loadOlder = useCallback(async () => {
    if (cursor !== null) await loadOlderPage(keys.messages({ q, cursor, limit: pageSize }), cursor);
  }, [loadOlderPage, cursor, q, pageSize]);

  // Too many new messages to merge (state.overflow): the newest page, loaded afresh, replaces the list.
  const { load: loadNewestPage, ...newest } = usePageLoad(useCallback((page: MessagePage) => dispatch({ type: "newest", page }), []));
  const loadNewest = useCallback(() => loadNewestPage(keys.messages({ q, limit: pageSize }), null), [loadNewestPage, q, pageSize]);

  // An empty list has no place to keep: it loads the newest page by itself.
  const emptyOverflow = state.overflow && state.items.length === 0;
  useEffect(() => {
    if (emptyOverflow) void loadNewest();
  }, [emptyOverflow, loadNewest]);

  const show = useCallback(() => {
    if (state.overflow) void loadNewest();
    else dispatch({ type: "show" });
  }, [state.overflow, loadNewest]);

  return {
    state,
    items: state.items,
    pendingCount: state.pending.length,
    /** More new messages than are held: showing them loads the newest page. */
    overflow: state.overflow,
    loadingNewest: newest.loading,
    newestError: newest.error,
    showPending: show,
    hasOlder: cursor !== null,
    loadOlder,
    loadingOlder: older.loading,
    olderError: older.error,
    pollError: poll.error,
    /** How far a first scan still loading is, as the latest answer said (undefined once it is done). */
    loading: poll.data ? poll.data.page.loading : initial.loading,
  };
}

/** One page fetched at a time, with its state: `onPage` gets the page and the `from` it was asked with. */
function usePageLoad(onPage: (page: MessagePage, from: string | null) => void) {
  const [status, setStatus] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const busy = useRef(false);
  const load = useCallback(
    async (url: string, from: string | null) => {
      if (busy.current) return;
      busy.current = true;
      setStatus({ loading: true, error: null });
      try {
        onPage(await fetchJson<MessagePage>(url), from);
        setStatus({ loading: false, error: null });
      } catch (err) {
        setStatus({ loading: false, error: errorMessage(err) });
      } finally {
        busy.current = false;
      }
    },
    [onPage],
  );
  return { ...status, load };
}
