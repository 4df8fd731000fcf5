"use client";

import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatDuration } from "@/lib/chart-model";
import { usePrefersDark } from "@/lib/client/use-prefers-dark";

// uPlot draws the charts: a canvas library of ~50 KB that draws 100,000 points in a few ms (its
// own benchmark: 166,650 points in 25 ms), where SVG libraries (Recharts, Nivo) make a DOM node per
// point and slow down past a few thousand. Loaded only in the browser, on the first chart.

export interface PlotSeries {
  name: string;
  values: (number | null)[];
}

/** The colour of the i-th series, from the theme's CSS variables (globals.css). */
export const seriesColor = (i: number) => `var(--chart-${(i % 8) + 1})`;

/** Running sums, so that series drawn from the last to the first stack. */
function cumulative(series: readonly PlotSeries[]): (number | null)[][] {
  const sums: (number | null)[][] = [];
  series.forEach((s, i) => sums.push(s.values.map((v, j) => (v ?? 0) + ((i > 0 ? sums[i - 1]?.[j] : 0) ?? 0))));
  return sums;
}

function options(mode: "stacked" | "lines", series: readonly PlotSeries[], width: number, height: number, css: CSSStyleDeclaration, u: typeof uPlot): uPlot.Options {
  const color = (i: number) => css.getPropertyValue(`--chart-${(i % 8) + 1}`).trim();
  const axis = { stroke: css.getPropertyValue("--chart-axis").trim(), grid: { stroke: css.getPropertyValue("--chart-grid").trim(), width: 1 }, ticks: { show: false } };
  const bars = u.paths.bars?.({ size: [0.9, 48] });
  // Stacked: the running sums, the largest drawn first, each next one over it.
  const order = mode === "stacked" ? series.map((_, i) => series.length - 1 - i) : series.map((_, i) => i);
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] } },
    axes: [axis, { ...axis, size: 64, values: mode === "lines" ? (_u, ticks) => ticks.map((t) => formatDuration(t)) : undefined }],
    series: [
      {},
      ...order.map((i) => ({
        label: series[i]?.name ?? "",
        stroke: color(i),
        fill: mode === "stacked" ? color(i) : undefined,
        width: mode === "stacked" ? 0 : 2,
        paths: mode === "stacked" ? bars : undefined,
        points: { show: mode === "lines" },
        spanGaps: mode === "lines",
      })),
    ],
  };
}

/**
 * One chart's canvas: a leaf that only draws (the numbers are in the table beside it, which
 * screen readers read). Drawn again when the data or the theme changes, and fitted to its box.
 */
export function UPlotChart({ x, series, mode, height = 200 }: { x: readonly number[]; series: readonly PlotSeries[]; mode: "stacked" | "lines"; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = usePrefersDark();
  useEffect(() => {
    let plot: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    let cancelled = false;
    void import("uplot").then(({ default: U }) => {
      const el = box.current;
      if (cancelled || !el) return;
      const sums = mode === "stacked" ? cumulative(series) : series.map((s) => s.values);
      const order = mode === "stacked" ? sums.map((_, i) => sums[sums.length - 1 - i] ?? []) : sums;
      const data: uPlot.AlignedData = [x.map((ms) => ms / 1000), ...order];
      plot = new U(options(mode, series, el.clientWidth || 600, height, getComputedStyle(el), U), data, el);
      resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
      resize.observe(el);
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [x, series, mode, height, dark]);
  return <div ref={box} aria-hidden="true" className="min-h-[200px] w-full" />;
}
