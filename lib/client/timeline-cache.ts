// What a timeline looked like when the reader left it (loaded pages, selection, scroll), so Back
// returns to the same place instead of the first page. Kept in memory for this tab only.
import type { Selection } from "./selection";
import type { TimelineState } from "./timeline";

export interface SavedTimeline {
  state: TimelineState;
  selection: Selection;
  scrollY: number;
}

const MAX_SAVED = 8;
/** A timeline mounted this soon after a Back/Forward (popstate) is that navigation's page. */
const POP_WINDOW_MS = 3000;

const saved = new Map<string, SavedTimeline>();
let lastPopAt = Number.NEGATIVE_INFINITY;

interface NavigateEventLike extends Event {
  navigationType?: string;
}

// A traversal is known from the Navigation API's "navigate" event, which comes before the router
// renders the page; "popstate" (captured, ahead of the router's listener) where that API is missing.
if (typeof window !== "undefined") {
  const navigation = (window as Window & { navigation?: EventTarget }).navigation;
  if (navigation) {
    navigation.addEventListener("navigate", (e: NavigateEventLike) => {
      if (e.navigationType === "traverse") lastPopAt = performance.now();
    });
  } else {
    window.addEventListener("popstate", () => (lastPopAt = performance.now()), { capture: true });
  }
}

export function saveTimeline(q: string, value: SavedTimeline): void {
  saved.delete(q);
  saved.set(q, value);
  while (saved.size > MAX_SAVED) {
    const oldest = saved.keys().next().value;
    if (oldest === undefined) break;
    saved.delete(oldest);
  }
}

/** The saved timeline for `q`, but only on a Back/Forward navigation: a new visit starts at the top. */
export function restoreTimeline(q: string): SavedTimeline | null {
  if (typeof window === "undefined" || performance.now() - lastPopAt > POP_WINDOW_MS) return null;
  return saved.get(q) ?? null;
}
