// The live timeline's state, as pure functions: a poll never moves what the reader is looking at.
import type { MessagePage, MessageSummary } from "@/lib/model";

export interface TimelineState {
  /** What is on screen, newest first. */
  items: MessageSummary[];
  /** Messages the poll found that are not on screen yet; shown when the reader asks. */
  pending: MessageSummary[];
  /** The journal sequence number the next poll starts from. */
  seq: number;
  /** Cursor for "Load older"; null when the oldest message is on screen. */
  nextCursor: string | null;
  /**
   * More new messages came than `pending` holds (a first scan, a big rescan): showing them means
   * loading the newest page afresh, not merging them in.
   */
  overflow: boolean;
}

/** New messages held back at most; past this the timeline only notes that there are more. */
export const PENDING_LIMIT = 500;

export function initTimeline(page: MessagePage): TimelineState {
  return { items: page.items, pending: [], seq: page.seq, nextCursor: page.nextCursor, overflow: false };
}

/**
 * Newest first, as the server orders pages: by sortMs (the date, or when a message without one was
 * first seen; never its last change, or a deleted old file would sort as new), then by key.
 */
export function compareNewestFirst(a: MessageSummary, b: MessageSummary): number {
  return b.sortMs - a.sortMs || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);
}

/**
 * Applies one poll (`?since=seq`): messages on screen are updated in place, `removed` keys are
 * dropped, and messages not on screen go to `pending` — unless they belong below the last loaded
 * page, where "Load older" will find them. An empty list (or one this poll empties) has nothing
 * to keep still: new messages go straight into it, unless more changed than the answer held
 * (`more`), when the list should rather load its newest page than show the first changes.
 */
export function applyPoll(state: TimelineState, page: MessagePage, more = false): TimelineState {
  if (page.items.length === 0 && !page.removed?.length) {
    return page.seq === state.seq ? state : { ...state, seq: page.seq };
  }
  const seq = Math.max(state.seq, page.seq);
  if (state.items.length === 0 && state.pending.length === 0 && state.nextCursor === null && !state.overflow) {
    return more ? { ...state, seq, overflow: true } : { ...state, items: [...page.items].sort(compareNewestFirst), seq };
  }
  const removed = new Set(page.removed ?? []);
  const changed = new Map(page.items.map((m) => [m.key, m]));
  const last = state.items.at(-1);

  const items: MessageSummary[] = [];
  for (const m of state.items) {
    if (removed.has(m.key)) continue;
    const update = changed.get(m.key);
    items.push(update ?? m);
    changed.delete(m.key);
  }

  const pending: MessageSummary[] = [];
  for (const m of state.pending) {
    if (removed.has(m.key)) continue;
    pending.push(changed.get(m.key) ?? m);
    changed.delete(m.key);
  }
  let overflow = state.overflow;
  for (const m of changed.values()) {
    const belowLoaded = state.nextCursor !== null && last !== undefined && compareNewestFirst(m, last) > 0;
    if (belowLoaded) continue;
    if (pending.length < PENDING_LIMIT) pending.push(m);
    else overflow = true;
  }
  // Its last rows left: an emptied list has nothing to keep still either, so what waited shows (as above).
  if (items.length === 0 && pending.length > 0 && state.nextCursor === null && !overflow) {
    return more ? { ...state, items, pending, seq, overflow: true } : { ...state, items: pending.sort(compareNewestFirst), pending: [], seq, overflow };
  }

  return { ...state, items, pending, seq, overflow };
}

/** The reader asked to see the new messages: merge them into the list in order. */
export function showPending(state: TimelineState): TimelineState {
  if (state.pending.length === 0 || state.overflow) return state;
  const items = [...state.pending, ...state.items].sort(compareNewestFirst);
  return { ...state, items, pending: [] };
}

/**
 * Appends an older page ("Load older"); skips keys already on screen or pending. A page read
 * before the last poll may show its rows as they were: a poll leaves changes below the loaded
 * rows to the next page, so the next poll starts again from the page's seq (a change applied
 * twice is the same change: rows update in place, pending ones by key).
 */
export function appendOlder(state: TimelineState, page: MessagePage): TimelineState {
  const olderKeys = new Set(page.items.map((m) => m.key));
  const seen = new Set(state.items.map((m) => m.key));
  const older = page.items.filter((m) => !seen.has(m.key));
  return {
    ...state,
    items: [...state.items, ...older],
    pending: state.pending.filter((m) => !olderKeys.has(m.key)),
    nextCursor: page.nextCursor,
    seq: Math.min(state.seq, page.seq),
  };
}

export type TimelineAction =
  /** `since`: the seq the poll was asked from (an answer for a list since replaced is dropped). */
  | { type: "poll"; page: MessagePage; since: number }
  /** `from`: the cursor it was loaded from (a page for a list since replaced is dropped). */
  | { type: "older"; page: MessagePage; from: string | null }
  | { type: "show" }
  | { type: "newest"; page: MessagePage };

/** The live timeline's one reducer: polls, older pages, "show new", and the newest page loaded afresh. */
export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case "poll":
      return action.since === state.seq ? applyPoll(state, action.page, action.page.more === true) : state;
    case "newest":
      return initTimeline(action.page);
    case "older":
      return action.from === state.nextCursor ? appendOlder(state, action.page) : state;
    case "show":
      return showPending(state);
  }
}
