"use client";

import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { useNow } from "@/lib/client/use-now";
import { STATUS_TONES } from "@/lib/protocols/types";
import type { ThreadDetail } from "@/lib/threads/model";
import { useReplayState } from "./replay-store";
import { SequenceArrowLink } from "./sequence-arrow";
import { FIT_MIN_LANE_W, GUTTER, laneX, MIN_LANE_W, rowY, sequenceLayout, THREAD_PANE_HEIGHT, visibleRows } from "./sequence-layout";
import { clock, toneColor } from "./tones";
import { countOf } from "@/lib/client/count";

/** Threads longer than this draw only the rows near the viewport. */
const DRAW_ALL_UP_TO = 400;

/**
 * Agents as lanes across, time down, one arrow per message and recipient. `fit`: a screen with no
 * mouse to scroll by (the presenter): lanes shrink further before the diagram scrolls sideways.
 */
export function SequenceView({ thread, className = THREAD_PANE_HEIGHT, fit = false }: { thread: ThreadDetail; className?: string; fit?: boolean }) {
  const local = useNow() !== null;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800, width: 1200 });
  const layout = useMemo(() => sequenceLayout(thread.messages, view.width, fit ? FIT_MIN_LANE_W : MIN_LANE_W), [thread.messages, view.width, fit]);
  const laneW = layout.laneW;
  const { step } = useReplayState();

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const measure = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth }));
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", measure);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);

  // On a step only: a new live message or a resize must not pull the view back from where the user scrolled.
  const showStep = useEffectEvent((step: number) => {
    const el = scroller.current;
    if (!el) return;
    const y = rowY(step);
    const top = y < el.scrollTop + 40 || y > el.scrollTop + el.clientHeight - 40 ? y - el.clientHeight / 2 : el.scrollTop;
    // Sideways too, when the diagram is wider than its pane: the step's arrows, sender to recipients, in view.
    const xs = layout.arrows.filter((a) => a.index === step).flatMap((a) => [laneX(a.from, laneW), laneX(a.to, laneW)]);
    const [lo, hi] = xs.length > 0 ? [Math.min(...xs) - laneW / 2, Math.max(...xs) + laneW / 2] : [el.scrollLeft, el.scrollLeft];
    const left = lo < el.scrollLeft || hi > el.scrollLeft + el.clientWidth ? Math.max(0, (lo + hi - el.clientWidth) / 2) : el.scrollLeft;
    if (top !== el.scrollTop || left !== el.scrollLeft) el.scrollTo({ top, left, behavior: "smooth" });
  });
  useEffect(() => {
    if (step !== null) showStep(step);
  }, [step]);

  const count = thread.messages.length;
  const [first, last] = count <= DRAW_ALL_UP_TO ? [0, count - 1] : visibleRows(view.top, view.height, count);
  const arrows = layout.arrows.filter((a) => a.index >= first && a.index <= last);

  return (
    <div ref={scroller} className={cn("relative overflow-auto", className)} data-testid="thread-sequence">
      <div className="sticky top-0 z-10 flex border-b border-zinc-200 bg-white/95 text-xs font-semibold dark:border-zinc-800 dark:bg-zinc-900/95" style={{ width: layout.width }}>
        <div style={{ width: GUTTER }} className="shrink-0 px-2 py-2 font-normal text-zinc-500 dark:text-zinc-400">{local ? "time" : "time (UTC)"}</div>
        {layout.lanes.map((lane) => (
          <div key={lane} style={{ width: laneW }} className="shrink-0 truncate px-1 py-2 text-center text-zinc-800 dark:text-zinc-200" title={lane}>
            {lane}
          </div>
        ))}
      </div>
      <svg width={layout.width} height={layout.height} role="group" aria-label={`Sequence of ${countOf(count, "message")} between ${countOf(layout.lanes.length, "agent")}`} className="block">
        <defs>
          {STATUS_TONES.map((tone) => (
            <marker key={tone} id={`seq-head-${tone}`} viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill={toneColor(tone)} />
            </marker>
          ))}
        </defs>
        {layout.lanes.map((lane, i) => (
          <line key={lane} x1={laneX(i, laneW)} x2={laneX(i, laneW)} y1={0} y2={layout.height} className="stroke-zinc-200 dark:stroke-zinc-800" strokeDasharray="4 4" />
        ))}
        {thread.messages.slice(first, last + 1).map((m, i) => (
          <text key={m.key} x={8} y={rowY(first + i) + 4} className="fill-zinc-500 text-[11px] tabular-nums">
            {clock(m.date ?? m.updatedAt, local)}
          </text>
        ))}
        {arrows.map((a) => (
          <SequenceArrowLink key={a.id} arrow={a} laneW={laneW} time={clock(a.message.date ?? a.message.updatedAt, local)} />
        ))}
      </svg>
      {count > DRAW_ALL_UP_TO ? <p className="sr-only">Only the rows near the scroll position are drawn; the table view lists every message.</p> : null}
    </div>
  );
}
