// Live updates, as the reader set them: paused or not, and how often to poll (Bull Board's pause
// and interval). Kept in localStorage, so they hold across pages and reloads, and shared by every
// poll through one SWR middleware (components/live-provider.tsx).
import { useSyncExternalStore } from "react";
import { localSettingListeners } from "./local-setting";

export interface LiveSettings {
  paused: boolean;
  /** The reader's poll interval in ms; null: the server's (MAILROOM_POLL_MS). */
  intervalMs: number | null;
}

/** The intervals offered: fast enough to watch a demo, slow enough for a laptop on battery. */
export const INTERVAL_CHOICES = [1000, 2000, 5000, 10_000, 30_000, 60_000] as const;

export const STORAGE_KEY = "mailroom.live";
const DEFAULTS: LiveSettings = { paused: false, intervalMs: null };

/** Settings from their stored text; anything unreadable is the defaults. */
export function readSettings(text: string | null): LiveSettings {
  if (!text) return DEFAULTS;
  try {
    const v = JSON.parse(text) as Partial<LiveSettings>;
    const interval = (INTERVAL_CHOICES as readonly number[]).includes(v.intervalMs as number) ? (v.intervalMs as number) : null;
    return { paused: v.paused === true, intervalMs: interval };
  } catch {
    return DEFAULTS;
  }
}

/**
 * What a poll waits now: 0 (never) while paused; otherwise its own interval scaled by the reader's
 * choice, so a poll that runs slower than the others on purpose (sources, once settled) stays slower.
 */
export function effectiveInterval(own: number, serverPollMs: number, s: LiveSettings): number {
  if (s.paused || own <= 0) return 0;
  if (s.intervalMs === null || serverPollMs <= 0) return own;
  return Math.round((own * s.intervalMs) / serverPollMs);
}

const setting = localSettingListeners(STORAGE_KEY);
let cachedText: string | null | undefined;
let cached: LiveSettings = DEFAULTS;

function current(): LiveSettings {
  const text = window.localStorage.getItem(STORAGE_KEY);
  if (text !== cachedText) {
    cachedText = text;
    cached = readSettings(text);
  }
  return cached;
}

export function setLiveSettings(next: Partial<LiveSettings>): void {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...current(), ...next }));
  setting.changed();
}

/** The reader's live settings, following changes (the defaults on the server). */
export function useLiveSettings(): LiveSettings {
  return useSyncExternalStore(setting.subscribe, current, () => DEFAULTS);
}
