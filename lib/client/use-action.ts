import { useCallback, useState } from "react";
import { useSWRConfig } from "swr";
import { errorMessage } from "./fetcher";

/** What the last action did, said for people (and screen readers, via an aria-live region). */
export interface ActionOutcome {
  ok: boolean;
  text: string;
  /** A page to open: the message where it is now. */
  href?: string;
  /** Undo (e.g. Restore after Discard). */
  undo?: { label: string; run: () => Promise<ActionOutcome> };
}

/**
 * Runs one action at a time and keeps its outcome. After any action, every API resource on the
 * page (message, stats, dead letters, timelines) is revalidated, so the page shows the new state.
 */
export function useAction() {
  const { mutate } = useSWRConfig();
  const [pending, setPending] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  const run = useCallback(
    async (label: string, action: () => Promise<ActionOutcome>): Promise<boolean> => {
      setPending(label);
      let next: ActionOutcome;
      try {
        next = await action();
      } catch (err) {
        next = { ok: false, text: `${label} failed: ${errorMessage(err)}` };
      }
      setOutcome(next);
      setPending(null);
      void mutate((key) => typeof key === "string" || Array.isArray(key));
      return next.ok;
    },
    [mutate],
  );

  return { run, pending, outcome, clear: useCallback(() => setOutcome(null), []) };
}
