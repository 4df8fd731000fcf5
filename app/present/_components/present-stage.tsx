"use client";

import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { ReplayContext, ReplayStore } from "@/components/thread/replay-store";
import { SequenceView } from "@/components/thread/sequence-view";
import { ThreadGraph } from "@/components/thread/thread-graph";
import { countOf } from "@/lib/client/count";
import { agentLights, type AgentLight, type PresenterView } from "@/lib/client/presenter";
import type { ThreadDetail } from "@/lib/threads/model";

/** The graph's zoom on the newest message: 1.5× makes a node's 12 px labels 18 px, readable across a room; 2–3 ranks still fit 720 px. */
const STAGE_ZOOM = 1.5;

const LIGHT: Record<"sending" | "receiving" | "idle", string> = {
  // sky-700 under white text: 5.9:1 (sky-600 was 4.1:1, under WCAG AA's 4.5:1 for text).
  sending: "bg-sky-700 text-white ring-sky-700 shadow-lg shadow-sky-500/40 dark:bg-sky-700 dark:ring-sky-400",
  receiving: "bg-sky-50 text-sky-900 ring-sky-500 dark:bg-sky-950 dark:text-sky-100 dark:ring-sky-400",
  idle: "bg-zinc-50 text-zinc-600 ring-zinc-300 dark:bg-zinc-900 dark:text-zinc-400 dark:ring-zinc-700",
};

/**
 * One thread as it grows: its agents (the newest message's sender lit, its recipients ringed)
 * over the graph or the sequence, the newest message highlighted as a replay's current step is
 * (and kept in view). Keyed by thread: a new thread starts afresh.
 */
export function PresentStage({ thread, view }: { thread: ThreadDetail; view: PresenterView }) {
  const newest = thread.messages.length - 1;
  const [store] = useState(() => {
    const s = new ReplayStore();
    s.set({ step: newest >= 0 ? newest : null });
    return s;
  });
  useEffect(() => store.set({ step: newest >= 0 ? newest : null }), [store, newest]);
  const agents = agentLights(thread.messages);
  const latest = thread.messages.at(-1);

  return (
    <ReplayContext value={store}>
      <div className="flex min-w-0 items-center gap-3">
        <ul aria-label="Agents of this thread" className="flex min-w-0 flex-1 flex-wrap gap-2 overflow-hidden">
          {agents.map(({ name, light }) => (
            <li key={name} data-light={light ?? undefined} className={cn("rounded-full px-3 py-1 text-lg font-medium ring-2 transition-colors duration-500", LIGHT[light ?? "idle"])}>
              {name}
              <span className="sr-only">{lightWord(light)}</span>
            </li>
          ))}
        </ul>
        <p className="shrink-0 text-lg tabular-nums text-zinc-500 dark:text-zinc-400">{countOf(thread.messages.length, "message")}</p>
      </div>
      {latest ? (
        <p className="truncate text-xl" data-testid="present-latest">
          <span className="text-zinc-500 dark:text-zinc-400">Newest: </span>
          <span className="font-semibold">{latest.type ?? "no type"}</span>{" "}
          <span className="text-zinc-600 dark:text-zinc-300">{latest.from ?? "unknown"} → {latest.to.join(", ") || "nobody"} · {latest.status}</span>
        </p>
      ) : null}
      <div className="min-h-0 flex-1 overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800">
        {view === "graph" ? <ThreadGraph thread={thread} className="h-full" currentZoom={STAGE_ZOOM} arrowKeysPan={false} /> : <SequenceView thread={thread} className="h-full" fit />}
      </div>
    </ReplayContext>
  );
}

function lightWord(light: AgentLight): string {
  return light === "sending" ? " (sent the newest message)" : light === "receiving" ? " (receives the newest message)" : "";
}
