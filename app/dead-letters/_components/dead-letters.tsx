"use client";

import { useState } from "react";
import { ActionStatus } from "@/components/actions/action-status";
import { Card } from "@/components/ui/card";
import { DeadLetterPlaces } from "@/components/dead-letter-places";
import type { DeadLettersResponse } from "@/lib/actions";
import { messageActionOutcome } from "@/lib/client/message-action";
import { errorMessage } from "@/lib/client/fetcher";
import { useVocabulary } from "@/lib/client/catalogs";
import { useAction } from "@/lib/client/use-action";
import { useDeadLetters } from "@/lib/client/use-dead-letters";
import { BulkBar } from "./bulk-bar";
import { DeadLetterRow } from "./dead-letter-row";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";
import { countOf } from "@/lib/client/count";
import { useRowsInPlace } from "./use-rows-in-place";
import { sharedQueues } from "./shared-queues";

const TH = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";

/** The live list of dead letters, with per-row actions and a bulk bar for the selected ones. */
export function DeadLetters({ initial, pollMs, readOnly, queues }: { initial: DeadLettersResponse; pollMs?: number; readOnly: boolean; queues: Record<string, string[]> }) {
  const { items: live, error } = useDeadLetters(initial, pollMs);
  const words = useVocabulary();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const { run, pending, outcome } = useAction();
  const { rows, done, act, undo } = useRowsInPlace(live, run);
  const items = rows.filter((d) => !done.has(d.key) && d.actions.length > 0);
  const chosen = items.filter((d) => selected.has(d.key));
  const all = items.length > 0 && chosen.length === items.length;
  // Letters of several protocols (IGNITE v3 and v2): each row says which it is.
  const showProtocol = new Set(rows.map((d) => d.protocol)).size > 1;

  function select(key: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  }

  return (
    <div className="space-y-3">
      {error ? (
        <p role="status" className="text-sm text-red-700 dark:text-red-400">
          Live updates paused: {errorMessage(error)}
        </p>
      ) : null}
      {readOnly ? null : (
        <>
          <BulkBar items={chosen} queues={sharedQueues(chosen, queues)} onDone={() => setSelected(new Set())} />
          {/* The undo is on the row acted on, which stays in place. */}
          <ActionStatus outcome={outcome} pending={pending} />
        </>
      )}
      {live.length > 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {countOf(live.length, "dead letter")} in <DeadLetterPlaces places={words.deadLetterPlaces} />, each holding one message
          that died (the overview&apos;s <span className="font-medium">{words.deadLetterStatuses.join(" / ")}</span> count).
        </p>
      ) : null}
      <Card className={TABLE_SCROLL}>
        {rows.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">No dead letters. Every message is delivered, on its way, or retrying.</p>
        ) : (
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">Dead letters, newest first</caption>
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                {readOnly ? null : (
                  <th scope="col" className={TH}>
                    <input
                      type="checkbox"
                      checked={all}
                      onChange={(e) => setSelected(new Set(e.target.checked ? items.map((d) => d.key) : []))}
                      aria-label="Select every dead letter"
                      className="size-4"
                    />
                  </th>
                )}
                <th scope="col" className={TH}>Original message</th>
                <th scope="col" className={TH}>Queue</th>
                <th scope="col" className={TH}>Failure</th>
                <th scope="col" className={TH}>Moved</th>
                <th scope="col" className={TH}>Thread</th>
                {readOnly ? null : <th scope="col" className={TH}><span className="sr-only">Actions</span></th>}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800/70">
              {rows.map((d) => (
                <DeadLetterRow
                  key={d.key}
                  item={d}
                  showProtocol={showProtocol}
                  selectable={!readOnly}
                  selected={selected.has(d.key)}
                  onSelect={(on) => select(d.key, on)}
                  busy={pending !== null}
                  done={done.get(d.key) ?? null}
                  onRequeue={() => act(d, "Requeuing", () => messageActionOutcome(d.key, { id: "requeue" }, { path: d.path }))}
                  onDiscard={() => act(d, "Discarding", () => messageActionOutcome(d.key, { id: "discard" }, { path: d.path }))}
                  onUndo={() => undo(d.key)}
                />
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
