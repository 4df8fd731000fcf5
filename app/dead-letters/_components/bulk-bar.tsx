"use client";

import { useId, useState } from "react";
import { useSWRConfig } from "swr";
import { QueuePicker } from "@/components/actions/queue-picker";
import { useFocusIfLost } from "@/components/actions/use-focus-on-mount";
import { buttonClass, usableIf } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { BulkItemResult, DeadLetterItem } from "@/lib/actions";
import { errorMessage } from "@/lib/client/fetcher";
import { postBulk } from "@/lib/client/post-action";
import { undoBulk } from "./undo-bulk";

type BulkAction = "requeue" | "discard";
interface Answer {
  /** What was asked: a preview is only good for the same action, queue and selection. */
  signature: string;
  action: BulkAction;
  dryRun: boolean;
  results: BulkItemResult[];
  /** How each key reads, kept from when it was asked (the selection is cleared after a run). */
  labels: Record<string, string>;
  /** A run taken back by Undo: its results are the restores'. */
  undone?: boolean;
}

/** Act on the selected dead letters: Preview (a dry run, nothing written), then Confirm. */
export function BulkBar({ items, queues, onDone }: { items: DeadLetterItem[]; queues: string[]; onDone: () => void }) {
  const id = useId();
  const { mutate } = useSWRConfig();
  const [action, setAction] = useState<BulkAction>("requeue");
  const [picked, setTo] = useState("");
  // A queue the selection's workspaces no longer share (the selection changed) is not asked for.
  const to = queues.includes(picked) ? picked : "";
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const keys = items.map((d) => d.key);
  // An action is offered for the selection when every selected letter's protocol offers it.
  const lacking = (a: BulkAction) => items.filter((d) => !d.actions.some((x) => x.id === a)).length;
  const chosen: BulkAction | null = items.length === 0 || lacking(action) === 0 ? action : (["requeue", "discard"] as const).find((a) => lacking(a) === 0) ?? null;
  const signature = JSON.stringify([chosen, to, keys]);
  const preview = answer?.dryRun && answer.signature === signature ? answer : null;

  async function send(dryRun: boolean) {
    if (!chosen) return;
    setPending(dryRun ? "Checking what would happen" : "Working");
    setFailure(null);
    try {
      const { results } = await postBulk({ action: chosen, keys, to: chosen === "requeue" && to ? to : undefined, dryRun });
      const labels = Object.fromEntries(items.map((d) => [d.key, `${d.originalType ?? "message"} → ${d.originalTo ?? "?"}`]));
      setAnswer({ signature, action: chosen, dryRun, results, labels });
      if (!dryRun) {
        onDone();
        void mutate((key) => typeof key === "string" || Array.isArray(key));
      }
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setPending(null);
    }
  }

  async function undo(run: Answer) {
    setPending("Undoing");
    setFailure(null);
    try {
      setAnswer({ ...run, results: await undoBulk(run.action, run.results), undone: true });
      void mutate((key) => typeof key === "string" || Array.isArray(key));
    } finally {
      setPending(null);
    }
  }

  const ok = answer?.results.filter((r) => r.ok).length ?? 0;
  // Undo goes away once pressed: the focus it held moves to Preview, not to the page's body.
  const previewRef = useFocusIfLost<HTMLButtonElement>(answer?.undone === true);
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {items.length === 0 ? "Select dead letters below to act on several at once" : `With the ${items.length.toLocaleString("en-US")} selected`}
      </h2>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <fieldset className="flex items-center gap-3" disabled={items.length === 0}>
          <legend className="sr-only">Action</legend>
          {(["requeue", "discard"] as const).map((a) => {
            const without = lacking(a);
            return (
              <label key={a} className={cn("inline-flex items-center gap-1.5 text-sm", without > 0 && "text-zinc-500 dark:text-zinc-400")}>
                <input type="radio" name={`${id}-action`} value={a} checked={chosen === a} disabled={without > 0} onChange={() => setAction(a)} />
                {a === "requeue" ? "Requeue" : "Discard"}
                {without > 0 ? <span className="text-xs">(not offered by {without.toLocaleString("en-US")} selected)</span> : null}
              </label>
            );
          })}
        </fieldset>
        {chosen === "requeue" ? <QueuePicker id={`${id}-to`} value={to} onChange={setTo} queues={queues} original="" /> : null}
        <button ref={previewRef} type="button" className={buttonClass("secondary")} {...usableIf(items.length > 0 && chosen !== null && pending === null, () => void send(true))}>
          Preview
        </button>
        <button type="button" className={buttonClass("primary")} {...usableIf(preview !== null && pending === null && preview.results.some((r) => r.ok), () => void send(false))}>
          Confirm
        </button>
      </div>
      <div role="status" aria-live="polite" className="space-y-1 text-sm">
        {pending ? <p className="text-zinc-600 dark:text-zinc-400">{pending}…</p> : null}
        {failure ? <p className="text-red-700 dark:text-red-400">{failure}</p> : null}
        {answer && !pending ? (
          <>
            <p className="font-medium">
              {answer.dryRun
                ? `Preview — nothing was changed: ${ok.toLocaleString("en-US")} of ${answer.results.length.toLocaleString("en-US")} would succeed. Confirm to do it.`
                : answer.undone
                  ? `Undone: ${ok.toLocaleString("en-US")} of ${answer.results.length.toLocaleString("en-US")} dead letters are back.`
                  : `Done: ${ok.toLocaleString("en-US")} of ${answer.results.length.toLocaleString("en-US")} succeeded.`}
            </p>
            <ul className="space-y-0.5">
              {answer.results.map((r) => (
                <li key={r.key} className={cn("[overflow-wrap:anywhere]", r.ok ? "text-zinc-700 dark:text-zinc-300" : "text-red-700 dark:text-red-400")}>
                  <span aria-hidden>{r.ok ? "✓ " : "✗ "}</span>
                  <span className="sr-only">{r.ok ? "OK: " : answer.dryRun ? "Would fail: " : "Failed: "}</span>
                  <span className="font-medium">{answer.labels[r.key] ?? r.key}</span>: {r.ok ? r.plan : r.error?.message}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
      {/* Outside the live region, and kept while it runs (disabled), so the focus stays on it. */}
      {answer && !answer.dryRun && !answer.undone && answer.results.some((r) => r.ok) ? (
        <button type="button" className={buttonClass("secondary")} {...usableIf(pending === null, () => void undo(answer))}>
          Undo
        </button>
      ) : null}
    </section>
  );
}
