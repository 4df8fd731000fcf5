import { useMemo } from "react";
import { formatDuration, type HopChart as HopData } from "@/lib/chart-model";
import { useVocabulary } from "@/lib/client/catalogs";
import { bucketTime, ChartTable } from "./chart-table";
import { ChartFigure, ChartLegend } from "./chart-figure";
import { seriesColor, UPlotChart } from "./uplot-chart";

const LINES = ["p50", "p90", "p99"] as const;

/** A hop's time as percentile lines over the range, with the whole range's figures and the table. */
export function HopChart({ data, bucketMs }: { data: HopData; bucketMs: number }) {
  const x = useMemo(() => data.buckets.map((b) => b + bucketMs / 2), [data.buckets, bucketMs]);
  const series = useMemo(() => LINES.map((p) => ({ name: p, values: data[p] })), [data]);
  const title = `${useVocabulary().catalogOf(data.protocol).label}: ${data.label}`;
  const o = data.overall;
  const figures = `p50 ${formatDuration(o.p50)} · p90 ${formatDuration(o.p90)} · p99 ${formatDuration(o.p99)}`;
  const sampled = data.sampledEvery > 1 ? `, timed on 1 in ${data.sampledEvery} messages` : "";
  const rows = data.buckets.flatMap((b, i) =>
    data.p50[i] === null || data.p50[i] === undefined ? [] : [{ key: b, cells: [bucketTime(b), ...LINES.map((p) => formatDuration(data[p][i] ?? null))] }],
  );
  return (
    <ChartFigure title={title} summary={`${title}, over ${o.n} messages: ${figures}.`} note={`${figures} (${o.n} messages${sampled})`}>
      <ChartLegend items={LINES.map((p, i) => ({ name: p, color: seriesColor(i) }))} />
      <UPlotChart x={x} series={series} mode="lines" />
      <ChartTable caption={title} columns={["Bucket (UTC)", ...LINES]} rows={rows} />
    </ChartFigure>
  );
}
