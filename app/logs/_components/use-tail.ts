"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { ApiClientError, fetchJson } from "@/lib/client/fetcher";
import { keys } from "@/lib/client/keys";
import { effectiveInterval, useLiveSettings } from "@/lib/client/live";
import { keepLast } from "@/lib/client/log-lines";

/** Lines kept on screen: a tail, not an archive (a day of a busy monitor's log is ~50,000 lines). */
const MAX_LINES = 2000;
/** The longest wait between two tries after errors in a row. */
const MAX_BACKOFF_MS = 60_000;

interface Slice {
  text: string;
  to: number;
}

/**
 * How long to wait before the next read of the log, or null to stop: a log gone (404) or swapped
 * for a link (409) is not read again; other errors wait twice as long each time, up to a minute.
 * `intervalMs` 0: paused.
 */
export function nextTailDelay(intervalMs: number, failures: number, error: unknown): number | null {
  if (error instanceof ApiClientError && (error.status === 404 || error.status === 409)) return null;
  if (intervalMs <= 0) return null;
  return failures === 0 ? intervalMs : Math.min(intervalMs * 2 ** failures, MAX_BACKOFF_MS);
}

const subscribeNever = () => () => {};

/** A log's tail as the server read it for the page: its text, and the byte its reading goes on from. */
export interface TailStart {
  source: string;
  name: string;
  text: string;
  to: number;
}

/**
 * The last lines of one log, read from where the last read ended. One read at a time (the next is
 * timed from the end of the last, so two never ask from the same place and append it twice), none
 * while Live is paused. `start`: the page's first log as the server read it, drawn with the page
 * (read only after hydration, the tail pushed the footer 536 px down a moment after the page).
 */
export function useTail(source: string, name: string, pollMs: number, start: TailStart | null = null): { lines: string[]; error: string | null } {
  // Only as the page is hydrated: a mount later (Back to a page Next kept) would seed it with a tail
  // read minutes ago, and catch up from there 64 KB a read; it reads the tail as it is now instead.
  const hydrating = useSyncExternalStore(subscribeNever, () => false, () => true);
  const [state, setState] = useState<{ id: string; lines: string[]; error: string | null; from: number }>(() =>
    start && hydrating
      ? { id: `${start.source}/${start.name}`, lines: keepLast([], start.text, MAX_LINES), error: null, from: start.to }
      : { id: "", lines: [], error: null, from: -1 },
  );
  const settings = useLiveSettings();
  const intervalMs = effectiveInterval(pollMs, pollMs, settings);
  const id = `${source}/${name}`;
  const from = state.id === id ? state.from : -1;
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let at = from;
    const tick = async () => {
      let error: unknown = null;
      try {
        const slice = await fetchJson<Slice>(keys.log(source, name, at));
        at = slice.to;
        failures = 0;
        if (!stop) setState((s) => ({ id, lines: keepLast(s.id === id ? s.lines : [], slice.text, MAX_LINES), error: null, from: slice.to }));
      } catch (err) {
        error = err;
        failures++;
        if (!stop) setState((s) => ({ ...(s.id === id ? s : { lines: [], from: at }), id, error: err instanceof Error ? err.message : String(err) }));
      }
      const wait = nextTailDelay(intervalMs, error ? failures : 0, error);
      if (!stop && wait !== null) timer = setTimeout(() => void tick(), wait);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
    // `from` only seeds a restart (another log, Live resumed); each read moves `at` on its own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, name, id, intervalMs]);
  return state.id === id ? state : { lines: [], error: null };
}
