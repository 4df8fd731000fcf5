import { Fragment } from "react";
import { RelativeTime } from "@/components/relative-time";
import { foldSteps, type LifecycleStep } from "@/lib/client/lifecycle";
import { useLifecycle } from "@/lib/client/use-lifecycle";
import type { HistoryEvent, Protocol } from "@/lib/model";

/** The message's lifecycle as the journal saw it, oldest first: one step per move, with the operator's action that made it. */
export function HistoryList({ history, protocol }: { history: HistoryEvent[]; protocol: Protocol }) {
  // Time spent at each step ("12 s in queue/", "4 min processing", "gone after 2 h").
  const steps = useLifecycle(history, protocol);
  if (steps.length === 0) {
    return <p className="px-4 py-6 text-sm text-zinc-500 dark:text-zinc-400">No lifecycle events recorded yet.</p>;
  }
  const { head, folded, tail } = foldSteps(steps);
  return (
    <div className="space-y-3 px-4 py-4">
      <Steps steps={head} last={tail.length === 0 && folded.length === 0} />
      {folded.length > 0 ? (
        <details className="group">
          <summary className="cursor-pointer pl-5 text-xs font-medium text-sky-800 dark:text-sky-300">
            {folded.length} earlier steps<span className="group-open:hidden"> (show)</span>
          </summary>
          <Steps steps={folded} last={false} className="mt-3" />
        </details>
      ) : null}
      {tail.length > 0 ? <Steps steps={tail} last /> : null}
    </div>
  );
}

function Steps({ steps, last, className = "" }: { steps: LifecycleStep[]; last: boolean; className?: string }) {
  return (
    <ol className={`relative space-y-3 ${className}`}>
      {steps.map(({ event: e, spent, note, cause, future }, i) => (
        <li key={i} className="relative flex gap-3 pl-5">
          <span aria-hidden className="absolute left-0 top-1.5 size-2.5 rounded-full border-2 border-sky-500 bg-white dark:bg-zinc-900" />
          {!last || i < steps.length - 1 ? (
            <span aria-hidden className="absolute left-[4.5px] top-4 h-[calc(100%+0.25rem)] w-px bg-zinc-200 dark:bg-zinc-700" />
          ) : null}
          <div className="min-w-0 flex-1">
            <EventLine event={e} />
            {cause ? <EventLine event={cause} className="mt-0.5 text-xs" prefix="Caused by: " /> : null}
            <p className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
              <RelativeTime iso={e.at} variant="both" />
            </p>
            {future ? (
              <p className="text-xs text-amber-800 dark:text-amber-300" data-future-note>
                Stamped <RelativeTime iso={future} variant="absolute" />, in the future: a clock ahead of this one; shown as now.
              </p>
            ) : null}
            <StepTime spent={spent} note={note} />
          </div>
        </li>
      ))}
    </ol>
  );
}

function EventLine({ event, className = "text-sm", prefix }: { event: HistoryEvent; className?: string; prefix?: string }) {
  return (
    <p className={`${className} break-words`}>
      {/* Heard, not seen: the indent and size show sighted users that the line belongs to the step. */}
      {prefix ? <span className="sr-only">{prefix}</span> : null}
      <span className="font-medium">{event.kind}</span>
      {event.detail ? <span className="text-zinc-600 dark:text-zinc-400"> — <BreakablePaths text={event.detail} /></span> : null}
    </p>
  );
}

/** Text whose paths may wrap after a "/" or "_" (never mid-word): a line break opportunity after each. */
function BreakablePaths({ text }: { text: string }) {
  const parts = text.split(/(?<=[/_])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? <wbr /> : null}
    </Fragment>
  ));
}

function StepTime({ spent, note }: { spent: string | null; note: string | null }) {
  if (!spent && !note) return null;
  return (
    // Off the live region: "so far" counts up while the page is open.
    <p aria-live="off" className="mt-0.5 text-xs font-medium text-sky-800 dark:text-sky-300">
      {[note, spent].filter(Boolean).join(" · ")}
    </p>
  );
}
