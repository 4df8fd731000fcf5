// Replay: which step of a thread is on screen. One small store shared by the graph and the
// sequence view; each node or arrow subscribes to its own phase, so a step re-renders only the
// two items whose phase changed, even in a thread of thousands of messages.
import { createContext, useContext, useSyncExternalStore } from "react";

export const SPEEDS = [0.5, 1, 2, 4] as const;
export type Speed = (typeof SPEEDS)[number];

/** A step every this many ms at 1×. */
export const STEP_MS = 1200;

export interface ReplayState {
  /** Index of the current message, or null when not replaying (everything shown). */
  step: number | null;
  playing: boolean;
  speed: Speed;
}

export type Phase = "idle" | "past" | "current" | "future";

export function phaseOf(step: number | null, index: number): Phase {
  if (step === null) return "idle";
  return index < step ? "past" : index === step ? "current" : "future";
}

export class ReplayStore {
  private state: ReplayState = { step: null, playing: false, speed: 1 };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): ReplayState => this.state;

  set(patch: Partial<ReplayState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Move to `step` (clamped to the thread), pausing unless `keepPlaying`. */
  goTo(step: number, count: number, keepPlaying = false): void {
    const clamped = Math.max(0, Math.min(count - 1, step));
    this.set({ step: clamped, playing: keepPlaying && clamped < count - 1 });
  }
}

export const ReplayContext = createContext<ReplayStore | null>(null);

function useStore(): ReplayStore {
  const store = useContext(ReplayContext);
  if (!store) throw new Error("ReplayContext is missing");
  return store;
}

export function useReplayStore(): ReplayStore {
  return useStore();
}

export function useReplayState(): ReplayState {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** The phase of the message at `index` (always "idle" outside a replay provider). */
export function useReplayPhase(index: number): Phase {
  const store = useContext(ReplayContext);
  return useSyncExternalStore(
    store?.subscribe ?? noopSubscribe,
    () => phaseOf(store?.get().step ?? null, index),
    () => "idle",
  );
}

const noopSubscribe = () => () => {};
