// How many pages this tab has shown since Mailroom loaded, so "go back" knows whether the previous
// history entry is one of ours (history.back()) or another site (then go to a fallback page).
let pagesShown = 0;

export function notePageShown(): void {
  pagesShown++;
}

/** True when an earlier page of this visit is in the history. */
export function hasInAppHistory(): boolean {
  return pagesShown > 1 && window.history.length > 1;
}
