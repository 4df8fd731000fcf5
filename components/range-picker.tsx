"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { PRESET_LABEL, RANGE_PRESETS, rangeLabel, rangeOrAll, rangeSearchParams, type TimeRange } from "@/lib/query/range";
import { buttonClass } from "./ui/button";

/**
 * A datetime-local value for ms, and back, in UTC as every time the console writes out (and so
 * the same on the server's render and in the browser, whatever their zones).
 */
const toUtcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const fromUtcInput = (value: string) => Date.parse(`${value}:00Z`);

/**
 * The time range of the page, in its URL (`?range=1h`, or `from`/`to` for a custom one), so the
 * timeline, threads and charts read the same one and a link keeps it. Other parameters stay.
 */
export function RangePicker() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const range = rangeOrAll(Object.fromEntries(params));
  const [custom, setCustom] = useState(range.kind === "custom");
  const [from, setFrom] = useState(() => toUtcInput(range.kind === "custom" ? range.from : Date.now() - 3_600_000));
  const [to, setTo] = useState(() => toUtcInput(range.kind === "custom" ? range.to : Date.now()));

  const go = (next: TimeRange) => {
    const kept = new URLSearchParams(params);
    for (const name of ["range", "from", "to", "cursor"]) kept.delete(name);
    for (const [name, value] of Object.entries(rangeSearchParams(next))) kept.set(name, value);
    const qs = kept.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  };
  const value = custom ? "custom" : range.kind === "preset" ? range.preset : "all";
  const { picked, onChange, onKeyDown, onBlur, onPointerDown } = useSettledChoice((v) => {
    setCustom(v === "custom");
    if (v === "all") go({ kind: "all" });
    else if (v !== "custom") go({ kind: "preset", preset: v as (typeof RANGE_PRESETS)[number] });
  });
  const badCustom = !(fromUtcInput(from) < fromUtcInput(to));

  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor="time-range" className="font-medium text-zinc-700 dark:text-zinc-300">Time range</label>
      <select
        id="time-range"
        value={picked ?? value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        onPointerDown={onPointerDown}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="all">All time</option>
        {RANGE_PRESETS.map((p) => (
          <option key={p} value={p}>{PRESET_LABEL[p]}</option>
        ))}
        <option value="custom">Custom…</option>
      </select>
      {custom ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!badCustom) go({ kind: "custom", from: fromUtcInput(from), to: fromUtcInput(to) });
          }}
        >
          <label className="flex items-center gap-1">
            From (UTC) <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} className="rounded-md border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900" />
          </label>
          <label className="flex items-center gap-1">
            to <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} className="rounded-md border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900" />
          </label>
          <button type="submit" disabled={badCustom} className={buttonClass("secondary")}>Apply</button>
          {badCustom ? <span role="alert" className="text-red-700 dark:text-red-400">From must be before to.</span> : null}
        </form>
      ) : range.kind === "custom" ? null : (
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{range.kind === "all" ? "" : `${rangeLabel(range)}, as of each update`}</span>
      )}
    </div>
  );
}

/** How long a choice made with the keys on a closed select waits for the next key before it applies. */
const KEY_SETTLE_MS = 1_000;

/**
 * A select whose choice loads a page: picked with the pointer it applies at once; with the keys
 * (arrows on a closed select change it at each press) a second after the last key, or at once on
 * Enter or on leaving it. Applied at each arrow, reaching "Custom…" loaded the list four times
 * and left four entries in the history.
 */
function useSettledChoice(apply: (value: string) => void) {
  const [picked, setPicked] = useState<string | null>(null);
  const keyed = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The page as it is when the choice applies (its other parameters may have changed since the key).
  const latest = useRef(apply);
  useEffect(() => {
    latest.current = apply;
  });
  const now = (v: string) => {
    clearTimeout(timer.current);
    setPicked(null);
    latest.current(v);
  };
  return {
    picked,
    onChange(v: string) {
      if (!keyed.current) return now(v);
      setPicked(v);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => now(v), KEY_SETTLE_MS);
    },
    onKeyDown(e: KeyboardEvent) {
      keyed.current = true;
      if (e.key === "Enter" && picked !== null) {
        e.preventDefault();
        now(picked);
      }
    },
    onBlur() {
      if (picked !== null) now(picked);
    },
    onPointerDown() {
      keyed.current = false;
    },
  };
}
