"use client";

import { useEffect, type KeyboardEvent } from "react";
import { buttonClass, usableIf } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { MessageSummary } from "@/lib/model";
import { SPEEDS, STEP_MS, useReplayState, useReplayStore, type Speed } from "@/components/thread/replay-store";
import { describeMessage } from "@/components/thread/tones";
import { countOf } from "@/lib/client/count";

const small = (active = false) => buttonClass(active ? "primary" : "secondary", "px-2 py-1 text-xs tabular-nums");

/**
 * Steps through the thread in time order, highlighting the current message in the graph and the
 * sequence: play, pause, step back/forward, speed, stop. Arrow keys step while focus is here.
 */
export function ReplayControls({ messages }: { messages: MessageSummary[] }) {
  const store = useReplayStore();
  const { step, playing, speed } = useReplayState();
  const count = messages.length;

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const s = store.get().step ?? -1;
      store.goTo(s + 1, count, true);
    }, STEP_MS / speed);
    return () => clearInterval(timer);
  }, [playing, speed, count, store]);

  const at = step ?? -1;
  const current = step === null ? null : messages[step];
  const play = () => store.set({ playing: true, step: step === null || step >= count - 1 ? 0 : step });
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowRight") store.goTo(at + 1, count);
    else if (e.key === "ArrowLeft") store.goTo(at - 1, count);
    else return;
    e.preventDefault();
  };

  return (
    <section aria-label="Replay" className="flex flex-wrap items-center gap-2" onKeyDown={onKeyDown}>
      <span className="text-sm font-medium text-zinc-700 dark:text-zinc-300">Replay</span>
      <div className="flex gap-1">
        <button type="button" className={small()} {...usableIf(count > 0 && at > 0, () => store.goTo(at - 1, count))}>
          <span aria-hidden>◀︎</span> Step back
        </button>
        {/* One button that turns from Play into Pause, so keyboard focus stays on it. */}
        <button type="button" className={small(true)} {...usableIf(count > 0, playing ? () => store.set({ playing: false }) : play)}>
          <span aria-hidden>{playing ? "❚❚" : "▶︎"}</span> {playing ? "Pause" : "Play"}
        </button>
        <button type="button" className={small()} {...usableIf(count > 0 && at < count - 1, () => store.goTo(at + 1, count))}>
          Step forward <span aria-hidden>▶︎</span>
        </button>
        <button type="button" className={small()} {...usableIf(step !== null, () => store.set({ step: null, playing: false }))}>
          Stop
        </button>
      </div>
      <div role="group" aria-label="Replay speed" className="flex gap-1">
        {SPEEDS.map((s: Speed) => (
          <button key={s} type="button" aria-pressed={s === speed} className={small(s === speed)} onClick={() => store.set({ speed: s })}>
            {s}×
          </button>
        ))}
      </div>
      <p aria-live="polite" aria-atomic="true" className={cn("min-w-0 flex-1 truncate text-sm", current ? "text-zinc-800 dark:text-zinc-200" : "text-zinc-500 dark:text-zinc-400")}>
        {current ? `Step ${(at + 1).toLocaleString("en-US")} of ${count.toLocaleString("en-US")}: ${describeMessage(current)}` : `${countOf(count, "message")}; press Play to step through them in order.`}
      </p>
    </section>
  );
}
