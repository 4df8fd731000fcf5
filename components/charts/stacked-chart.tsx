import { useMemo } from "react";
import type { StackedChart as StackedData } from "@/lib/chart-model";
import { bucketTime, ChartTable } from "./chart-table";
import { ChartLegend, ChartFigure } from "./chart-figure";
import { seriesColor, UPlotChart } from "./uplot-chart";

/** Counts per bucket, stacked by series, with their table. */
export function StackedChart({ title, data, bucketMs }: { title: string; data: StackedData; bucketMs: number }) {
  const x = useMemo(() => data.buckets.map((b) => b + bucketMs / 2), [data.buckets, bucketMs]);
  const totals = data.buckets.map((_, i) => data.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const total = totals.reduce((a, b) => a + b, 0);
  // Series come biggest first (stack in chart-model.ts); named with its count ("most from dead" read as if "dead" were a sender).
  const top = data.series[0];
  const topN = top ? top.values.reduce((a, b) => a + b, 0) : 0;
  const summary = `${title}: ${total} in all${top && topN > 0 ? `; the most, ${top.name} (${topN})` : ""}.`;
  const rows = data.buckets.flatMap((b, i) => ((totals[i] ?? 0) === 0 ? [] : [{ key: b, cells: [bucketTime(b), ...data.series.map((s) => s.values[i] ?? 0), totals[i] ?? 0] }]));
  return (
    <ChartFigure title={title} summary={summary}>
      <ChartLegend items={data.series.map((s, i) => ({ name: s.name, color: seriesColor(i) }))} />
      {total > 0 ? (
        <UPlotChart x={x} series={data.series} mode="stacked" />
      ) : (
        <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">Nothing in this range.</p>
      )}
      <ChartTable caption={title} columns={["Bucket (UTC)", ...data.series.map((s) => s.name), "Total"]} rows={rows} />
    </ChartFigure>
  );
}
