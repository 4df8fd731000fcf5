import { createContext, useContext, useSyncExternalStore } from "react";

// One shared clock for every relative time on the page. The server snapshot is null, so the
// server render and hydration agree; the clock starts right after hydration.
const TICK_MS = 5000;
let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

/**
 * The server's clock as it rendered the page, in ms (ServerNowProvider): what relative times read
 * until hydrated, and what the shared clock starts from then, so hydration changes none of them.
 * Started from the browser's clock instead, the ages of messages a few seconds old ("just now",
 * "6 s ago") changed width at hydration and moved a phone's dead-letter list (0.07 of layout shift).
 */
export const ServerNowContext = createContext<number | null>(null);

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    // A clock left from an earlier page (every listener gone) is set again; one not yet started is started by the snapshot.
    if (now !== 0 && Date.now() - now > TICK_MS) now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The clock; its first reading is the server's time when that is less than a tick old (see ServerNowContext). */
function snapshotFrom(serverNow: number | null): number {
  if (now === 0) now = serverNow !== null && Date.now() - serverNow < TICK_MS ? serverNow : Date.now();
  return now;
}

function getServerSnapshot(): null {
  return null;
}

/** The current time in ms, refreshed every few seconds; null during the server render and hydration. */
export function useNow(): number | null {
  const serverNow = useContext(ServerNowContext);
  return useSyncExternalStore(subscribe, () => snapshotFrom(serverNow), getServerSnapshot);
}
