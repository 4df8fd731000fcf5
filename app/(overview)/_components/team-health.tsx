"use client";

import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import Link from "next/link";
import { routes } from "@/lib/client/keys";
import { useSourceHealth } from "@/lib/client/use-source-health";
import type { SourceHealth, SourceHealthItem } from "@/lib/model";
import { TEXT_LINK } from "@/components/ui/text-link";

const tone = (health: string) => (health === "healthy" ? "emerald" : health === "unknown" ? "neutral" : "amber");

function Monitor({ monitor }: { monitor: NonNullable<SourceHealth["monitor"]> }) {
  return monitor.alive ? (
    <p className="text-sm text-emerald-700 dark:text-emerald-400">
      Monitor running{monitor.lastBeatAt ? <> · last heartbeat <RelativeTime iso={monitor.lastBeatAt} /></> : null}
    </p>
  ) : (
    // Not a live region: it stays while the monitor is down, and its times tick.
    <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-600/20 dark:bg-red-950/40 dark:text-red-300">
      {monitor.problem ?? "The monitor is not running."}
      {monitor.lastBeatAt ? <> Last heartbeat <RelativeTime iso={monitor.lastBeatAt} />.</> : null}
    </p>
  );
}

/** Is the team alive: the monitor, each agent's health, the session (nothing when no source keeps such state). `initial`: the server's. */
export function TeamHealth({ initial, pollMs, multiSource }: { initial: SourceHealthItem[] | null; pollMs: number; multiSource: boolean }) {
  const { sources } = useSourceHealth(pollMs, initial);
  const shown = (sources ?? []).filter((s) => s.health !== null);
  if (shown.length === 0) return null;
  return (
    <section aria-label="Team health" className="space-y-3">
      {shown.map(({ source, health }) =>
        health ? (
          <div key={source} className="space-y-2">
            {multiSource ? <h2 className="text-sm font-medium text-zinc-500 dark:text-zinc-400">{source}</h2> : null}
            {health.monitor ? <Monitor monitor={health.monitor} /> : null}
            <ul className="flex flex-wrap gap-1.5" aria-label="Agents">
              {health.agents.map((a) => (
                <li key={a.name}>
                  <Badge tone={tone(a.health)} title={a.detail ?? undefined}>
                    {a.name}: {a.health}
                    {a.detail?.includes("no session") ? " · no session" : ""}
                  </Badge>
                </li>
              ))}
            </ul>
            {health.session ? (
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                Session {health.session.name ?? "(unnamed)"}
                {health.session.startedAt ? <> · started <RelativeTime iso={health.session.startedAt} /></> : null} ·{" "}
                <Link href={routes.logs} className={TEXT_LINK}>logs</Link>
              </p>
            ) : null}
          </div>
        ) : null,
      )}
    </section>
  );
}
