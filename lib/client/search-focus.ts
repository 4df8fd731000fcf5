// `/` on a page without a search box opens the messages timeline with its box focused. The
// request crosses one client-side navigation, so a module variable carries it (no URL state).
let pending = false;

export function focusSearchOnArrival(): void {
  pending = true;
}

/** True once after focusSearchOnArrival(): the search box that mounts next takes the focus. */
export function takeSearchFocus(): boolean {
  const was = pending;
  pending = false;
  return was;
}
