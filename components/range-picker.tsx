"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
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
  const badCustom = !(fromUtcInput(from) < fromUtcInput(to));

  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor="time-range" className="font-medium text-zinc-700 dark:text-zinc-300">Time range</label>
      <select
        id="time-range"
        value={value}
        onChange={(e) => {
          const v = e.target.value;
          setCustom(v === "custom");
          if (v === "all") go({ kind: "all" });
          else if (v !== "custom") go({ kind: "preset", preset: v as (typeof RANGE_PRESETS)[number] });
        }}
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
