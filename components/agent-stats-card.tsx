import { useVocabulary } from "@/lib/client/catalogs";
import type { AgentStats } from "@/lib/model";
import { Age, RelativeTime } from "./relative-time";
import { RetryCountdown } from "./retry-countdown";
import { columnsOf } from "./agent-columns";
import type { CountTone } from "./agent-counts";
import { cn } from "./ui/cn";

const TONE: Record<CountTone, string> = {
  plain: "",
  warn: "text-amber-700 dark:text-amber-400",
  bad: "text-red-700 dark:text-red-400",
  alarm: "text-red-700 dark:text-red-400",
};
/** One agent's queue at a glance, in its protocol's own columns (one card per workspace the agent appears in). */
export function AgentStatsCard({ stats, showSource = false }: { stats: AgentStats; showSource?: boolean }) {
  const { counts, oldest } = columnsOf(useVocabulary(), stats.protocol);
  return (
    <section
      aria-label={`${stats.agent} queue${showSource ? ` in ${stats.source}` : ""}`}
      className={cn(
        "rounded-lg border bg-white p-4 dark:bg-zinc-900",
        stats.stuck > 0 ? "border-red-300 dark:border-red-900" : "border-zinc-200 dark:border-zinc-800",
      )}
    >
      {showSource ? <p className="mb-2 font-mono text-xs text-zinc-500 dark:text-zinc-400">{stats.source}</p> : null}
      <dl className="grid grid-cols-3 gap-x-4 gap-y-3 sm:grid-cols-4 lg:grid-cols-8">
        {counts.map((c) => (
          <div key={c.key}>
            <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{c.label}</dt>
            <dd
              className={cn(
                "text-2xl font-semibold tabular-nums",
                c.count(stats) > 0 ? TONE[c.tone] : "text-zinc-500 dark:text-zinc-400",
              )}
            >
              {c.count(stats).toLocaleString("en-US")}
            </dd>
            {c.retries && c.count(stats) > 0 && stats.nextRetryAt ? (
              <dd className="text-xs text-amber-700 dark:text-amber-400">
                <RetryCountdown iso={stats.nextRetryAt} />
              </dd>
            ) : null}
          </div>
        ))}
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{oldest}</dt>
          <dd className="pt-1.5 text-sm tabular-nums">
            <Age iso={stats.oldestQueuedAt} />
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Last activity</dt>
          <dd className="pt-1.5 text-sm tabular-nums">
            <RelativeTime iso={stats.lastActivityAt} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
