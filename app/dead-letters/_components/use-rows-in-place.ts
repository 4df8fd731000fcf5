import { useMemo, useState } from "react";
import type { DeadLetterItem } from "@/lib/actions";
import type { ActionOutcome } from "@/lib/client/use-action";
import { keepInPlace, placeOf, type KeptRow } from "@/lib/client/rows-in-place";

type Run = (label: string, action: () => Promise<ActionOutcome>) => Promise<boolean>;
/** A row acted on: what the action did (null once undone, while the row comes back to the live list). */
type Acted = KeptRow<DeadLetterItem> & { outcome: ActionOutcome | null };

/**
 * The dead letters as listed, a row acted on staying in its place, marked done with its undo,
 * for as long as the page is open: nothing moves under the pointer after a one-click action.
 */
export function useRowsInPlace(live: DeadLetterItem[], run: Run) {
  const [acted, setActed] = useState<ReadonlyMap<string, Acted>>(new Map());
  const rows = useMemo(() => keepInPlace(live, acted), [live, acted]);
  const done = useMemo(() => new Map([...acted].flatMap(([key, a]) => (a.outcome ? [[key, a.outcome] as const] : []))), [acted]);

  const mark = (key: string, change: (a: Acted | undefined) => Acted) => setActed((m) => new Map(m).set(key, change(m.get(key))));

  async function act(item: DeadLetterItem, label: string, action: () => Promise<ActionOutcome>) {
    const place = placeOf(rows, item.key);
    let outcome: ActionOutcome | null = null;
    const ok = await run(label, async () => (outcome = await action()));
    if (ok && outcome) mark(item.key, () => ({ item, ...place, outcome }));
  }

  async function undo(key: string) {
    const u = acted.get(key)?.outcome?.undo;
    if (!u) return;
    if (await run(u.label, u.run)) mark(key, (a) => ({ ...(a as Acted), outcome: null }));
  }

  return { rows, done, act, undo };
}
