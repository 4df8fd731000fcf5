"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import type { MessagePage } from "@/lib/model";
import { announce } from "@/lib/client/announcer";
import { countOf } from "@/lib/client/count";
import { errorMessage } from "@/lib/client/fetcher";
import { routes } from "@/lib/client/keys";
import { NO_SELECTION, selectedIndex, selectionReducer } from "@/lib/client/selection";
import { restoreTimeline, saveTimeline } from "@/lib/client/timeline-cache";
import { useListShortcuts } from "@/lib/client/use-list-shortcuts";
import { useMessagePoll } from "@/lib/client/use-message-poll";
import { LoadingStatus } from "./loading-status";
import { NewMessagesButton } from "./new-messages-button";
import { TimelineFooter } from "./timeline-footer";
import { VirtualMessageList } from "./virtual-message-list";

/** Older pages load by themselves once the reader (scrolling, or with j) is this close to the end. */
const NEAR_END_ROWS = 40;
/** Rows per older page when the page does not say: a fast scroll should not outrun the loading. */
const OLDER_PAGE_SIZE = 200;

/**
 * The live message list. New messages wait behind an "N new messages" button (an empty list
 * takes them in at once); messages on screen update in place; older pages load as the reader nears the end (or with "Load older").
 * Only the rows in view are rendered. j/k select a row, Enter opens it, Esc clears.
 */
export function Timeline({
  q,
  initial,
  pollMs,
  pageSize,
  empty,
  showProtocol = false,
  searched = false,
}: {
  /** The effective query, as the server ran it for `initial`. */
  q: string;
  initial: MessagePage;
  pollMs?: number;
  /** Messages per older page (default OLDER_PAGE_SIZE). */
  pageSize?: number;
  /** What to say when nothing matches. */
  empty: string;
  /** The journal holds more than one protocol: each row says which one its message speaks. */
  showProtocol?: boolean;
  /** A search's results: what was found is said as they appear (see announce). */
  searched?: boolean;
}) {
  const [saved] = useState(() => restoreTimeline(q));
  const t = useMessagePoll({ q, initial, pollMs, pageSize: pageSize ?? OLDER_PAGE_SIZE, restored: saved?.state });
  const router = useRouter();
  const listRef = useRef<HTMLDivElement>(null);
  const [selection, dispatch] = useReducer(selectionReducer, saved?.selection ?? NO_SELECTION);
  const [focusRequest, setFocusRequest] = useState(0);
  const keys = useMemo(() => t.items.map((m) => m.key), [t.items]);
  const selected = selectedIndex(selection, keys);
  const n = t.pendingCount;
  // This list is drawn anew for each search: what it found is said once, as it appears.
  const told = useRef(false);
  useEffect(() => {
    if (!searched || told.current) return;
    told.current = true;
    const found = initial.items.length;
    announce(found === 0 ? empty : initial.nextCursor ? `${found.toLocaleString("en-US")} or more messages match, newest first.` : `${countOf(found, "message")} ${found === 1 ? "matches" : "match"}.`);
  }, [searched, initial, empty]);
  // The selection follows the row it lands on when its message leaves, so rows arriving later
  // above it cannot carry it off to yet another message (Enter would open that one).
  useEffect(() => dispatch({ type: "settle", keys }), [keys]);

  // Back to this list: the same pages, selection and scroll position as when the reader left.
  const latest = useRef({ state: t.state, selection, scrollY: 0 });
  useEffect(() => {
    latest.current = { ...latest.current, state: t.state, selection };
  });
  useLayoutEffect(() => {
    if (saved) window.scrollTo(0, saved.scrollY);
    return () => saveTimeline(q, latest.current);
  }, [q, saved]);
  const onScroll = useCallback(() => {
    latest.current.scrollY = window.scrollY;
  }, []);

  const { hasOlder, loadingOlder, olderError, loadOlder } = t;
  const maybeLoadOlder = useCallback(
    (lastIndex: number, force = false) => {
      if (!hasOlder || loadingOlder || olderError) return;
      // Not before the reader has scrolled: a short list then offers the "Load older" button.
      if (lastIndex >= keys.length - NEAR_END_ROWS && (force || window.scrollY > 0)) void loadOlder();
    },
    [hasOlder, loadingOlder, olderError, keys.length, loadOlder],
  );

  useListShortcuts({
    move(delta) {
      const next = selectionReducer(selection, { type: "move", delta, keys });
      dispatch({ type: "move", delta, keys });
      setFocusRequest((r) => r + 1);
      if (next.index >= 0) maybeLoadOlder(next.index, true);
    },
    open() {
      const key = selected === null ? undefined : keys[selected];
      if (key) router.push(routes.message(key));
      return key !== undefined;
    },
    escape() {
      if (document.activeElement instanceof HTMLElement && listRef.current?.contains(document.activeElement)) {
        document.activeElement.blur();
      }
      dispatch({ type: "clear" });
    },
  });

  function showNew() {
    t.showPending();
    listRef.current?.focus();
  }

  return (
    <section aria-label="Messages" className="space-y-2">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-2">
        <div aria-live="polite" aria-atomic="true">
          <NewMessagesButton count={n} overflow={t.overflow} loading={t.loadingNewest} error={t.newestError} onShow={showNew} />
        </div>
        {/* In the header row: empty once the scan is done, it takes no room. */}
        <LoadingStatus loading={t.loading} filtered={q !== ""} />
        <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {t.pollError ? (
            <span className="text-red-700 dark:text-red-400">Live updates paused: {errorMessage(t.pollError)}</span>
          ) : (
            <span className="inline-flex items-center gap-1.5">
              <span aria-hidden className="size-1.5 rounded-full bg-emerald-500" />
              Live
            </span>
          )}
        </p>
      </div>

      <div
        ref={listRef}
        tabIndex={-1}
        className="rounded-lg border border-zinc-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {t.items.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">{empty}</p>
        ) : (
          <VirtualMessageList
            items={t.items}
            caption={q ? `Messages matching ${q}, newest first` : "All messages, newest first"}
            complete={!hasOlder}
            selected={selected}
            focusRequest={focusRequest}
            onLastRow={maybeLoadOlder}
            onScroll={onScroll}
            showProtocol={showProtocol}
          />
        )}
      </div>

      <TimelineFooter
        count={t.items.length}
        hasOlder={hasOlder}
        loading={loadingOlder}
        error={olderError}
        filtered={q !== ""}
        onLoadOlder={() => void loadOlder()}
      />
    </section>
  );
}
