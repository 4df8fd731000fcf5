/** Poll interval when the server does not say otherwise (MAILROOM_POLL_MS defaults to 2000). */
export const DEFAULT_POLL_MS = 2000;
/** Messages per timeline page (first render and each "Load older"). */
export const PAGE_SIZE = 50;
/** Messages in the overview's recent activity list. */
export const RECENT_LIMIT = 10;

/** SWR deduplicates requests made within this window; keep it under the poll interval. */
export function dedupeFor(pollMs: number): number {
  return Math.max(100, Math.min(1000, Math.floor(pollMs / 2)));
}
