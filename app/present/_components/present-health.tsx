"use client";

import { cn } from "@/components/ui/cn";
import { useSourceHealth } from "@/lib/client/use-source-health";
import { useStats } from "@/lib/client/use-stats";
import type { SourceHealthItem, Stats } from "@/lib/model";

const DOT = { healthy: "bg-emerald-500", unknown: "bg-zinc-400", other: "bg-amber-500" } as const;
const dotOf = (health: string) => (health === "healthy" || health === "unknown" ? DOT[health] : DOT.other);

/** The team at a glance: totals that need someone (dead, past due), each monitor that is down, how many agents are healthy and which are not. */
export function PresentHealth({ initial, initialHealth, pollMs }: { initial: Stats; initialHealth: SourceHealthItem[] | null; pollMs: number }) {
  const { data: stats = initial } = useStats(initial, pollMs);
  const { sources } = useSourceHealth(pollMs, initialHealth);
  const dead = stats.totals.dead ?? 0;
  const overdue = stats.agents.reduce((n, a) => n + a.stuck, 0);
  const monitorsDown = (sources ?? []).filter((s) => s.health?.monitor && !s.health.monitor.alive).map((s) => s.source);
  const agents = (sources ?? []).flatMap((s) => s.health?.agents ?? []);
  const unwell = agents.filter((a) => a.health !== "healthy");
  const healthy = agents.length - unwell.length;

  return (
    <section aria-labelledby="present-health" className="space-y-2">
      <h2 id="present-health" className="text-lg font-semibold">Team health</h2>
      <p className="flex flex-wrap gap-x-4 text-lg tabular-nums">
        <span>{stats.totals.messages.toLocaleString("en-US")} messages</span>
        <span className={cn(dead > 0 && "font-semibold text-red-700 dark:text-red-400")}>{dead.toLocaleString("en-US")} dead</span>
        <span className={cn(overdue > 0 && "font-semibold text-amber-700 dark:text-amber-400")}>{overdue.toLocaleString("en-US")} past due</span>
      </p>
      {monitorsDown.length > 0 ? (
        <p className="rounded-md bg-red-50 px-3 py-1.5 text-base text-red-800 dark:bg-red-950/40 dark:text-red-300">Monitor down: {monitorsDown.join(", ")}</p>
      ) : null}
      {agents.length > 0 ? (
        // Only who needs someone is named: a demo team of five protocols has dozens of healthy agents.
        <ul aria-label="Agents' health" className="flex max-h-[5.5rem] flex-wrap gap-x-3 gap-y-1 overflow-hidden text-base">
          {healthy > 0 ? (
            <li className="inline-flex items-center gap-1.5">
              <span aria-hidden className={cn("size-2.5 rounded-full", DOT.healthy)} />
              {healthy} {healthy === 1 ? "agent" : "agents"} healthy
            </li>
          ) : null}
          {unwell.map((a, i) => (
            <li key={`${a.name}-${i}`} className="inline-flex items-center gap-1.5" title={a.detail ?? undefined}>
              <span aria-hidden className={cn("size-2.5 rounded-full", dotOf(a.health))} />
              {a.name} <span className="text-amber-700 dark:text-amber-400">{a.health}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
