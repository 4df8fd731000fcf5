import Link from "next/link";
import type { CountTone } from "@/components/agent-counts";
import { Age, RelativeTime } from "@/components/relative-time";
import { RetryCountdown } from "@/components/retry-countdown";
import { cn } from "@/components/ui/cn";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import type { AgentStats, Protocol } from "@/lib/model";
import { columnsOf, type CountColumn } from "@/components/agent-columns";

const TH = "px-3 py-2 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TONE: Record<CountTone, string> = {
  plain: "",
  warn: "text-amber-700 dark:text-amber-400 font-semibold",
  bad: "text-red-700 dark:text-red-400 font-semibold",
  alarm: "bg-red-600 text-white font-semibold rounded px-1.5 dark:bg-red-500",
};

/** A count, linking to the messages it counts (a zero links nowhere: there is nothing to list). */
function Count({ agent, column }: { agent: AgentStats; column: CountColumn }) {
  const n = column.count(agent);
  const text = n.toLocaleString("en-US");
  if (n === 0) return <span className="text-zinc-500 dark:text-zinc-400">{text}</span>;
  return (
    <Link href={routes.messages(column.query(agent))} title={`Show ${agent.agent}'s ${column.label.toLowerCase()} messages`} className={cn("hover:underline", TONE[column.tone])}>
      {text}
    </Link>
  );
}

/** One row per agent of one protocol (per workspace): counts by the protocol's statuses, oldest waiting age, last activity. */
export function ProtocolAgentsTable({ protocol, agents, caption }: { protocol: Protocol; agents: AgentStats[]; caption: string }) {
  const multiSource = new Set(agents.map((a) => a.source)).size > 1;
  const { counts, oldest } = columnsOf(useVocabulary(), protocol);
  return (
    <div className={TABLE_SCROLL}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className={cn(TH, "text-left")}>Agent</th>
            {counts.map((c) => (
              <th key={c.key} scope="col" className={cn(TH, "text-right")}>{c.label}</th>
            ))}
            <th scope="col" className={cn(TH, "text-right")}>{oldest}</th>
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
                {multiSource ? <span className="ml-2 text-xs font-normal text-zinc-500 dark:text-zinc-400">{a.source}</span> : null}
              </th>
              {counts.map((c) => (
                <td key={c.key} className="px-3 py-1.5 text-right tabular-nums">
                  <Count agent={a} column={c} />
                  {c.retries && c.count(a) > 0 && a.nextRetryAt ? (
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
