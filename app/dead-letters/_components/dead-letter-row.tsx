import { useEffect, useRef } from "react";
import Link from "next/link";
import { focusIsLost } from "@/components/actions/use-focus-on-mount";
import { ProtocolBadge } from "@/components/protocol-badge";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { buttonClass, usableIf } from "@/components/ui/button";
import type { DeadLetterItem } from "@/lib/actions";
import { routes } from "@/lib/client/keys";
import { queryTerm } from "@/lib/client/search-params";
import { countOf } from "@/lib/client/count";
import type { ActionOutcome } from "@/lib/client/use-action";
import { TEXT_LINK } from "@/components/ui/text-link";

const TD = "px-3 py-2 align-top";

/** One dead letter: the original it holds, where it was bound, why it failed, and its actions. */
export function DeadLetterRow({
  item: d,
  showProtocol = false,
  selectable,
  selected,
  onSelect,
  busy,
  done,
  onRequeue,
  onDiscard,
  onUndo,
}: {
  item: DeadLetterItem;
  /** The list holds letters of several protocols: this one says which it is. */
  showProtocol?: boolean;
  selectable: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  busy: boolean;
  /** What a one-click action did to this row: the row stays, marked, with its undo. */
  done: ActionOutcome | null;
  onRequeue: () => void;
  onDiscard: () => void;
  onUndo: () => void;
}) {
  const name = d.originalType ?? "unknown type";
  // The letter's own actions, as its protocol offers them; columns stay in place for one with none.
  const offers = (id: "requeue" | "discard") => d.actions.some((a) => a.id === id);
  const actionable = d.actions.length > 0;
  const actions = useRefocus(done === null);
  return (
    <tr className={done ? "bg-zinc-50 text-zinc-500 dark:bg-zinc-900/60 dark:text-zinc-400" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/40"} data-done={done ? "" : undefined}>
      {selectable ? (
        <td className={TD}>
          {done || !actionable ? null : <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={`Select ${name} (${d.path})`} className="size-4" />}
        </td>
      ) : null}
      <th scope="row" className={`${TD} text-left font-normal`}>
        <Link href={routes.message(d.originalKey ?? d.key)} className={`${TEXT_LINK} font-medium`}>
          {name}
        </Link>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {d.originalFrom ?? "unknown"} → {d.originalTo ?? "unknown"} ·{" "}
          <Link href={routes.message(d.key)} className={TEXT_LINK}>
            dead letter
          </Link>
          {showProtocol ? <ProtocolBadge protocol={d.protocol} className="ml-1.5" /> : null}
        </p>
        <p className="break-all font-mono text-[0.7rem] text-zinc-500 dark:text-zinc-400">{d.originalFile ?? d.path}</p>
        {d.originalPath ? (
          <Badge tone="fuchsia" title={`The original is back on disk at ${d.originalPath}: this dead letter is a leftover (a requeue that did not finish). Discard it.`}>
            original back in queue
          </Badge>
        ) : null}
        {d.problems.length > 0 ? <Badge tone="orange" title={d.problems.join("\n")}>{countOf(d.problems.length, "problem")}</Badge> : null}
      </th>
      <td className={`${TD} font-mono text-xs`}>{d.originalTo ?? <span className="italic text-zinc-500 dark:text-zinc-400">unknown</span>}</td>
      <td className={TD}>
        <p className="tabular-nums">{d.retryCount === null ? "—" : countOf(d.retryCount, "retry", "retries")}</p>
        {d.lastError ? <p className="text-xs text-red-700 [overflow-wrap:anywhere] dark:text-red-400">{d.lastError}</p> : null}
      </td>
      <td className={`${TD} whitespace-nowrap tabular-nums text-zinc-600 dark:text-zinc-400`}>
        <RelativeTime iso={d.movedAt} />
      </td>
      <td className={`${TD} font-mono text-xs`}>
        {d.threadId ? <Link href={routes.messages(queryTerm("thread", d.threadId))} className={TEXT_LINK}>{d.threadId}</Link> : <span className="text-zinc-500 dark:text-zinc-400">—</span>}
      </td>
      {selectable && done ? (
        <td className={`${TD} text-right`}>
          <DoneCell outcome={done} busy={busy} onUndo={onUndo} />
        </td>
      ) : selectable && !actionable ? (
        <td className={`${TD} text-right text-xs text-zinc-500 dark:text-zinc-400`}>Read only: its protocol offers no action on it</td>
      ) : selectable ? (
        <td className={`${TD} whitespace-nowrap text-right`}>
          <span ref={actions} className="inline-flex gap-1.5">
            {offers("requeue") ? (
              <button type="button" className={buttonClass("primary", "py-1")} disabled={!d.originalTo} {...usableIf(!busy, onRequeue)}>
                Requeue
              </button>
            ) : null}
            {offers("discard") ? (
              <button type="button" className={buttonClass("secondary", "py-1")} {...usableIf(!busy, onDiscard)}>
                Discard
              </button>
            ) : null}
          </span>
        </td>
      ) : null}
    </tr>
  );
}

/**
 * The row's actions, back after an undo: the Undo pressed is gone with its cell, and the focus it
 * held (left on the page's body) comes to the first action. Not when the row first appears.
 */
function useRefocus(shown: boolean) {
  const ref = useRef<HTMLSpanElement>(null);
  const wasHidden = useRef(!shown);
  useEffect(() => {
    if (shown && wasHidden.current && focusIsLost()) ref.current?.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
    wasHidden.current = !shown;
  }, [shown]);
  return ref;
}

/** In place of the buttons once acted on: what happened, and its undo (Restore, or Undo of a requeue). */
function DoneCell({ outcome, busy, onUndo }: { outcome: ActionOutcome; busy: boolean; onUndo: () => void }) {
  const cell = useRef<HTMLSpanElement>(null);
  // The button pressed is gone with the buttons: the focus, left on the page's body, comes here (its undo, else the outcome).
  useEffect(() => {
    if (!focusIsLost()) return;
    (cell.current?.querySelector("button") ?? cell.current)?.focus();
  }, []);
  return (
    <span ref={cell} tabIndex={-1} className="inline-flex items-center gap-2 outline-none">
      <span className="text-sm font-medium text-emerald-800 dark:text-emerald-300" title={outcome.text}>
        {outcome.text.split(":")[0]}
      </span>
      {outcome.undo ? (
        <button type="button" className={buttonClass("secondary", "py-1")} {...usableIf(!busy, onUndo)}>
          {outcome.undo.label}
        </button>
      ) : null}
    </span>
  );
}
