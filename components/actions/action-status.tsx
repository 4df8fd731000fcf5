"use client";

import Link from "next/link";
import type { ActionOutcome } from "@/lib/client/use-action";
import { buttonClass } from "../ui/button";
import { cn } from "../ui/cn";

/** The outcome of the last action, in a polite live region, with its link and undo button. */
export function ActionStatus({
  outcome,
  pending,
  onUndo,
  className,
}: {
  outcome: ActionOutcome | null;
  pending: string | null;
  onUndo?: (undo: NonNullable<ActionOutcome["undo"]>) => void;
  className?: string;
}) {
  return (
    <div role="status" aria-live="polite" className={cn("min-h-5 text-sm", className)}>
      {pending ? (
        <p className="text-zinc-600 dark:text-zinc-400">{pending}…</p>
      ) : outcome ? (
        <p className={cn("flex flex-wrap items-center gap-x-2 gap-y-1", outcome.ok ? "text-emerald-800 dark:text-emerald-300" : "text-red-700 dark:text-red-400")}>
          <span className="[overflow-wrap:anywhere]">{outcome.text}</span>
          {outcome.href ? (
            <Link href={outcome.href} className="font-medium underline underline-offset-2">
              Open it
            </Link>
          ) : null}
          {outcome.undo && onUndo ? (
            <button type="button" className={buttonClass("secondary", "py-0.5")} onClick={() => outcome.undo && onUndo(outcome.undo)}>
              {outcome.undo.label}
            </button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
