// `/` on a page without a search box opens the messages timeline with its box focused, and a
// search sent from the box finds it focused again once the page shows the results. The request
// crosses one client-side navigation, so a module variable carries it (no URL state).

/** Where `/` goes from a page without a search box. */
export const SEARCH_PAGE = "/messages";

/**
 * Marks an element holding input not yet sent (the compose form, the requeue editor): while one
 * is on the page, `/` does not navigate away from it.
 */
export const HOLDS_INPUT_SELECTOR = "[data-holds-input]";

/** A request not taken this soon (the page failed, or the reader went elsewhere) lapses, so it never steals focus later. */
const LAPSES_AFTER_MS = 5000;

let pending: { path: string; at: number } | null = null;

export function focusSearchOnArrival(path: string = SEARCH_PAGE, now: number = performance.now()): void {
  pending = { path, at: now };
}

/** True once after focusSearchOnArrival(), for the search box that mounts on that page in time. */
export function takeSearchFocus(path: string, now: number = performance.now()): boolean {
  const was = pending;
  pending = null;
  return was !== null && was.path === path && now - was.at <= LAPSES_AFTER_MS;
}
