"use client";

import { INTERVAL_CHOICES, setLiveSettings, useLiveSettings } from "@/lib/client/live";
import { cn } from "./ui/cn";

const seconds = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`);

/** Pause or resume live updates, and how often they poll: in the header, on every page. */
export function LiveControls({ pollMs }: { pollMs: number }) {
  const { paused, intervalMs } = useLiveSettings();
  return (
    <div className="flex items-center gap-1.5 text-xs">
      <button
        type="button"
        onClick={() => setLiveSettings({ paused: !paused })}
        aria-pressed={paused}
        title={paused ? "Resume live updates" : "Pause live updates: nothing on the page changes until you resume"}
        className={cn(
          "rounded-md px-2 py-1 font-medium ring-1 ring-inset",
          paused
            ? "bg-amber-50 text-amber-800 ring-amber-600/30 dark:bg-amber-950/40 dark:text-amber-300"
            : "text-zinc-600 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800",
        )}
      >
        {paused ? "▶ Resume" : "❚❚ Pause"}
      </button>
      <label className="sr-only" htmlFor="poll-interval">Poll every</label>
      {/* On a phone the header has no room for it: pause still works there. */}
      <select
        id="poll-interval"
        value={intervalMs ?? ""}
        onChange={(e) => setLiveSettings({ intervalMs: e.target.value === "" ? null : Number(e.target.value) })}
        disabled={paused}
        title="How often live views poll"
        className="hidden rounded-md border border-zinc-300 bg-white px-1 py-1 sm:block dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="">every {seconds(pollMs)} (server)</option>
        {INTERVAL_CHOICES.filter((ms) => ms !== pollMs).map((ms) => (
          <option key={ms} value={ms}>every {seconds(ms)}</option>
        ))}
      </select>
      <span aria-live="polite" className={paused ? "font-medium text-amber-700 dark:text-amber-400" : "sr-only"}>
        {paused ? "Live updates paused" : ""}
      </span>
    </div>
  );
}
