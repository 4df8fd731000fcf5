"use client";

import { useSyncExternalStore } from "react";

// One polite live region for the whole app (components/announcer.tsx), for what a view says once
// as it appears: a live region inserted already filled (a search's new result list) is not
// reliably read out, and one inside a view drawn anew for each search is such a region every time.

let said = "";
let count = 0;
const listeners = new Set<() => void>();

/** Say `text` once through the app's live region (the same text again is said again). */
export function announce(text: string): void {
  // A changed node each time, so a screen reader reads a repeated result too (see Announcer).
  said = text;
  count++;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const NOTHING = { text: "", count: 0 };
let snapshot = NOTHING;
function current() {
  if (snapshot.count !== count) snapshot = { text: said, count };
  return snapshot;
}

/** What was last announced, and how many announcements there have been (a key for its node). */
export function useAnnouncement(): { text: string; count: number } {
  return useSyncExternalStore(subscribe, current, () => NOTHING);
}
