"use client";

import { useRef } from "react";
import type { MessagePage } from "@/lib/model";
import { errorMessage } from "@/lib/client/fetcher";
import { useMessagePoll } from "@/lib/client/use-message-poll";
import { buttonClass } from "../ui/button";
import { MessageTable } from "./message-table";

/**
 * The live message list. New messages wait behind an "N new messages" button; messages on
 * screen update in place; older pages load on request. Nothing moves under the reader.
 */
export function Timeline({
  q,
  initial,
  pollMs,
  empty,
}: {
  /** The effective query, as the server ran it for `initial`. */
  q: string;
  initial: MessagePage;
  pollMs?: number;
  /** What to say when nothing matches. */
  empty: string;
}) {
  const t = useMessagePoll({ q, initial, pollMs });
  const listRef = useRef<HTMLDivElement>(null);
  const n = t.pendingCount;

  function showNew() {
    t.showPending();
    listRef.current?.focus();
  }

  return (
    <section aria-label="Messages" className="space-y-2">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-2">
        <div aria-live="polite" aria-atomic="true">
          {n > 0 ? (
            <button type="button" onClick={showNew} className={buttonClass("primary", "py-1")}>
              <span aria-hidden className="size-2 animate-pulse rounded-full bg-sky-400" />
              {n === 1 ? "1 new message" : `${n} new messages`}
            </button>
          ) : null}
        </div>
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
          <MessageTable items={t.items} caption={q ? `Messages matching ${q}, newest first` : "All messages, newest first"} />
        )}
      </div>

      <div className="flex flex-col items-center gap-1 py-2">
        {t.hasOlder ? (
          <button type="button" onClick={() => void t.loadOlder()} disabled={t.loadingOlder} className={buttonClass("secondary")}>
            {t.loadingOlder ? "Loading…" : "Load older"}
          </button>
        ) : t.items.length > 0 ? (
          <p className="text-xs text-zinc-400 dark:text-zinc-500">That is everything{q ? " that matches" : ""}.</p>
        ) : null}
        {t.olderError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {t.olderError}
          </p>
        ) : null}
      </div>
    </section>
  );
}
