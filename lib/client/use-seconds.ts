import { useSyncExternalStore } from "react";

// A clock that ticks every second, for countdowns ("retry in 12 s"); shared by every countdown on
// the page. Null during the server render and hydration, so both agree.
let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

export function useSeconds(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => (now === 0 ? (now = Date.now()) : now),
    () => null,
  );
}
