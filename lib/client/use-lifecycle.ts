import { useMemo } from "react";
import type { HistoryEvent } from "@/lib/model";
import { lifecycleSteps, type LifecycleStep } from "./lifecycle";
import { useNow } from "./use-now";

/** The history with the time spent at each step; the present step's time keeps counting. */
export function useLifecycle(history: HistoryEvent[]): LifecycleStep[] {
  const now = useNow();
  return useMemo(() => lifecycleSteps(history, now), [history, now]);
}
