import { useMemo } from "react";
import type { HistoryEvent, Protocol } from "@/lib/model";
import { useVocabulary } from "./catalogs";
import { lifecycleSteps, type LifecycleStep } from "./lifecycle";
import { useNow } from "./use-now";

/** The history of a message of `protocol` with the time spent at each step; the present step's time keeps counting. */
export function useLifecycle(history: HistoryEvent[], protocol: Protocol): LifecycleStep[] {
  const now = useNow();
  const catalog = useVocabulary().catalogOf(protocol);
  return useMemo(() => lifecycleSteps(history, catalog, now), [history, catalog, now]);
}
