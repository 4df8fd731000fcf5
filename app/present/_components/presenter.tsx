"use client";

import { useEffect, useEffectEvent, useRef, useState } from "react";
import { focusIsLost } from "@/components/actions/use-focus-on-mount";
import { EscapeBack } from "@/components/keyboard/escape-back";
import type { MessagePage, Protocol, SourceHealthItem, Stats } from "@/lib/model";
import { useVocabulary } from "@/lib/client/catalogs";
import { nextProtocol, presentedThread, presenterKey, protocolQuery, stepThread, type PresenterKey, type PresenterView } from "@/lib/client/presenter";
import { shortcutKeyAllowed } from "@/lib/client/single-keys";
import { useSwitchingThread } from "@/lib/client/use-thread";
import { useThreads } from "@/lib/client/use-threads";
import type { ThreadDetail, ThreadList } from "@/lib/threads/model";
import { PresentHealth } from "./present-health";
import { PresentLegend } from "./present-legend";
import { PresentStage } from "./present-stage";
import { PresentTicker } from "./present-ticker";

export interface PresenterInitial {
  threads: ThreadList;
  thread: ThreadDetail | null;
  recent: MessagePage;
  stats: Stats;
  /** The team's health as the server read it: drawn with the page, the stage does not move when it comes. */
  health: SourceHealthItem[] | null;
  protocols: Protocol[];
}

/**
 * The whole presenter, fitted to the screen under the site header: it follows the newest active
 * thread (of the chosen protocol) until pinned; keys switch thread, view and protocol.
 */
export function Presenter({ initial, pollMs }: { initial: PresenterInitial; pollMs: number }) {
  const [protocol, setProtocol] = useState<Protocol | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const words = useVocabulary();
  const [view, setView] = useState<PresenterView>("graph");
  const { list } = useThreads(protocolQuery(protocol), initial.threads, pollMs);
  const id = presentedThread(list.items, pinned);
  const { thread, error } = useSwitchingThread(id, initial.thread, pollMs);

  const [stage, keepFocus] = useStageFocus(`${view} ${thread?.id ?? ""}`);
  const act = (action: PresenterKey) => {
    keepFocus();
    if (action === "next" || action === "prev") setPinned(stepThread(list.items, id, action === "next" ? 1 : -1));
    else if (action === "pin") setPinned(pinned === null ? id : null);
    else if (action === "view") setView(view === "graph" ? "sequence" : "graph");
    else {
      // Another protocol: follow its newest thread.
      setProtocol(nextProtocol(initial.protocols, protocol));
      setPinned(null);
    }
  };
  useKeys(act);

  const following = pinned === null;
  const at = list.items.findIndex((t) => t.id === id);
  const protocolLabel = protocol ? words.catalogOf(protocol).label : "All protocols";
  return (
    <div data-presenter className="fixed inset-x-0 bottom-0 top-12 z-[5] flex flex-col gap-3 bg-white p-4 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <EscapeBack fallback="/" />
      {/* Built for a big screen; on a phone the header wraps and the stage sits above the side panel. */}
      <header className="flex min-w-0 flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="shrink-0 text-lg font-medium text-zinc-500 dark:text-zinc-400">Presenter</h1>
        <p className="min-w-0 truncate font-mono text-2xl font-semibold" data-testid="present-thread" title={thread?.id}>
          {thread ? thread.id : "No thread yet"}
        </p>
        {id !== null ? (
          <p className="shrink-0 text-lg tabular-nums text-zinc-500 dark:text-zinc-400" data-testid="present-position">
            {at >= 0 ? `thread ${at + 1} of ${list.items.length}` : "not in the list"}
          </p>
        ) : null}
        <p role="status" className="ml-auto min-w-0 text-lg lg:shrink-0" data-testid="present-mode">
          <span className={following ? "font-semibold text-emerald-700 dark:text-emerald-400" : "font-semibold text-amber-700 dark:text-amber-400"}>
            {following ? "● Following the newest thread" : "Pinned"}
          </span>
          <span className="text-zinc-500 dark:text-zinc-400"> · {view} · {protocolLabel}</span>
          {/* Said when the presenter moves on by itself, too. */}
          <span className="sr-only">{thread ? `. Showing thread ${thread.id}` : ""}</span>
        </p>
      </header>
      {error ? <p className="text-base text-red-700 dark:text-red-400">Live updates paused: {error.message}</p> : null}
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)] grid-rows-[minmax(0,1fr)_minmax(0,40%)] gap-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-1">
        <section ref={stage} tabIndex={-1} aria-label="Thread" className="flex min-h-0 flex-col gap-3 outline-none">
          {thread ? (
            <PresentStage key={thread.id} thread={thread} view={view} />
          ) : (
            <p className="m-auto max-w-lg text-center text-2xl text-zinc-500 dark:text-zinc-400">
              No threads {protocol ? `in ${protocolLabel} ` : ""}yet. The newest appears here as soon as an agent starts one.
            </p>
          )}
        </section>
        <aside className="flex min-h-0 flex-col gap-4 overflow-y-auto lg:overflow-visible">
          <PresentHealth initial={initial.stats} initialHealth={initial.health} pollMs={pollMs} />
          <PresentTicker initial={initial.recent} pollMs={pollMs} several={initial.protocols.length > 1} />
        </aside>
      </div>
      <PresentLegend onAct={act} />
    </div>
  );
}

/**
 * The stage is drawn anew for another view or thread: focus on a node in it (left on the page's
 * body as the node goes) comes to the stage. `shown`: what the stage shows; `keep()` before a change.
 */
function useStageFocus(shown: string) {
  const stage = useRef<HTMLElement>(null);
  /** When a key acted with the focus in the stage (null: not so): a later change by itself (following the newest) takes no focus. */
  const keptAt = useRef<number | null>(null);
  useEffect(() => {
    if (keptAt.current !== null && performance.now() - keptAt.current < KEPT_FOR_MS && focusIsLost()) stage.current?.focus();
    keptAt.current = null;
  }, [shown]);
  const keep = () => void (keptAt.current = stage.current?.contains(document.activeElement) ? performance.now() : null);
  return [stage, keep] as const;
}

/** How long after a key the stage it redraws takes the focus back (a thread switch waits for its fetch). */
const KEPT_FOR_MS = 5_000;

/** The presenter's keys, page-wide; a focused button's own Space and Enter are left to it. */
function useKeys(act: (action: PresenterKey) => void) {
  const onAction = useEffectEvent(act);
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || document.querySelector("dialog[open]") || !shortcutKeyAllowed(e.key)) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
      const action = presenterKey(e, target);
      if (!action) return;
      e.preventDefault();
      onAction(action);
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
