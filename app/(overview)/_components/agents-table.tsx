import Link from "next/link";
import { AGENT_COUNTS, type CountTone } from "@/components/agent-counts";
import { Age, RelativeTime } from "@/components/relative-time";
import { RetryCountdown } from "@/components/retry-countdown";
import { cn } from "@/components/ui/cn";
import { routes } from "@/lib/client/keys";
import type { AgentStats } from "@/lib/model";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";

const TH = "px-3 py-2 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TONE: Record<CountTone, string> = {
  plain: "",
  warn: "text-amber-700 dark:text-amber-400 font-semibold",
  bad: "text-red-700 dark:text-red-400 font-semibold",
  alarm: "bg-red-600 text-white font-semibold rounded px-1.5 dark:bg-red-500",
};
const COUNTS = AGENT_COUNTS.map((c) => ({ ...c, alert: TONE[c.tone] }));

/** One row per agent (per workspace): counts by status, oldest queued age, last activity. */
export function AgentsTable({ agents }: { agents: AgentStats[] }) {
  const multiSource = new Set(agents.map((a) => a.source)).size > 1;
  if (agents.length === 0) {
    return <p className="px-4 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">No agents found yet. Agents appear when their queue folders do.</p>;
  }
  return (
    <div className={TABLE_SCROLL}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Agents and their message counts</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className={cn(TH, "text-left")}>Agent</th>
            {COUNTS.map((c) => (
              <th key={c.key} scope="col" className={cn(TH, "text-right")}>{c.label}</th>
            ))}
            <th scope="col" className={cn(TH, "text-right")}>Oldest queued</th>
            <th scope="col" className={cn(TH, "text-right")}>Last activity</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800/70">
          {agents.map((a) => (
            <tr key={`${a.source}/${a.agent}`} className={cn(a.stuck > 0 && "bg-red-50/70 dark:bg-red-950/25")}>
              <th scope="row" className="px-3 py-1.5 text-left font-medium">
                <Link href={routes.agent(a.agent)} className="rounded-sm text-sky-700 hover:underline dark:text-sky-400">
                  {a.agent}
                </Link>
                {multiSource ? <span className="ml-2 text-xs font-normal text-zinc-500">{a.source}</span> : null}
              </th>
              {COUNTS.map((c) => (
                <td key={c.key} className="px-3 py-1.5 text-right tabular-nums">
                  <span className={a[c.key] > 0 ? c.alert : "text-zinc-400 dark:text-zinc-600"}>{a[c.key].toLocaleString("en-US")}</span>
                  {c.key === "retrying" && a.retrying > 0 && a.nextRetryAt ? (
                    <RetryCountdown iso={a.nextRetryAt} className="block whitespace-nowrap text-xs text-amber-700 dark:text-amber-400" />
                  ) : null}
                </td>
              ))}
              <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums text-zinc-600 dark:text-zinc-400">
                <Age iso={a.oldestQueuedAt} />
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={a.lastActivityAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
