"use client";

import type { Charts } from "@/lib/chart-model";
import { errorMessage } from "@/lib/client/fetcher";
import { useCharts } from "@/lib/client/use-charts";
import { HopChart } from "./hop-chart";
import { StackedChart } from "./stacked-chart";

/**
 * The charts of the overview or an agent's page (`params`: the range's and agent's, as
 * GET /api/charts reads them), live; each a canvas with its table.
 */
export function ChartsSection({ params, initial, pollMs, perAgent }: { params: Record<string, string>; initial: Charts; pollMs: number; perAgent: boolean }) {
  const { data = initial, error } = useCharts(params, initial, pollMs);
  const bucket = data.window.bucketMs;
  return (
    <section aria-labelledby="charts-title" className="space-y-3">
      <h2 id="charts-title" className="text-base font-semibold">Activity</h2>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">Charts not updated: {errorMessage(error)}</p> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {perAgent ? null : <StackedChart title="Messages by agent" data={data.byAgent} bucketMs={bucket} />}
        <StackedChart title="Messages by type" data={data.byType} bucketMs={bucket} />
        <StackedChart title="Dead letters and failures" data={data.failures} bucketMs={bucket} />
        {data.hops.map((h) => (
          <HopChart key={`${h.protocol}/${h.hop}`} data={h} bucketMs={bucket} />
        ))}
      </div>
      {data.hops.length === 0 ? <p className="text-sm text-zinc-500 dark:text-zinc-400">No hop finished in this range, so no hop times to chart.</p> : null}
    </section>
  );
}
