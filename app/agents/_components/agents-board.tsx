"use client";

import Link from "next/link";
import { useState } from "react";
import { Age, RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { agentRows, sortAgents, type SortKey } from "@/lib/client/agent-rows";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { useSourceHealth } from "@/lib/client/use-source-health";
import { useStats } from "@/lib/client/use-stats";
import type { SourceHealthItem, Stats } from "@/lib/model";
import { TEXT_LINK } from "@/components/ui/text-link";

const TH = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TD = "px-3 py-2 align-middle";

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "agent", label: "Agent" },
  { key: "protocol", label: "Protocol" },
  { key: "attention", label: "Health" },
  { key: "lastSeen", label: "Last seen" },
  { key: "depth", label: "Waiting", numeric: true },
  { key: "oldest", label: "Oldest waiting" },
  { key: "errorRate", label: "Failed", numeric: true },
];

/** Every agent across protocols, live, sortable by any column; the unhealthy first until another order is chosen. */
export function AgentsBoard({ initialStats, initialHealth, pollMs }: { initialStats: Stats; initialHealth: SourceHealthItem[] | null; pollMs: number }) {
  const { data: stats } = useStats(initialStats, pollMs);
  const { sources } = useSourceHealth(pollMs, initialHealth);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "attention", descending: false });
  const words = useVocabulary();
  const rows = sortAgents(agentRows(words, (stats ?? initialStats).agents, sources), sort.key, sort.descending);
  const toggle = (key: SortKey) => setSort((s) => ({ key, descending: s.key === key ? !s.descending : key !== "agent" && key !== "protocol" }));

  if (rows.length === 0) return <p className="text-sm text-zinc-500 dark:text-zinc-400">No agent has a queue, inbox or channel yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Agents across protocols, sorted by {COLUMNS.find((c) => c.key === sort.key)?.label}</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className={TH} aria-sort={sort.key === c.key ? (sort.descending ? "descending" : "ascending") : undefined}>
                <button type="button" onClick={() => toggle(c.key)} className="uppercase hover:text-zinc-900 dark:hover:text-zinc-100">
                  {c.label}
                  {sort.key === c.key ? <span aria-hidden> {sort.descending ? "↓" : "↑"}</span> : null}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.source}\0${r.agent}`} className={r.unhealthy ? "bg-red-50/60 dark:bg-red-950/20" : "border-t border-zinc-100 dark:border-zinc-800"}>
              <th scope="row" className={`${TD} text-left font-medium`}>
                <Link href={routes.agent(r.agent)} className={TEXT_LINK}>{r.agent}</Link>
                <span className="ml-2 font-mono text-xs text-zinc-500 dark:text-zinc-400">{r.source}</span>
              </th>
              <td className={TD}>{words.catalogOf(r.protocol).label}</td>
              <td className={TD}>
                {r.health ? <Badge tone={r.unhealthy ? "amber" : "emerald"}>{r.health}</Badge> : <span className="text-zinc-500 dark:text-zinc-400">not recorded</span>}
                {r.stuck > 0 ? <Badge tone="red" className="ml-1">{r.stuck} past due</Badge> : null}
              </td>
              <td className={TD}><RelativeTime iso={r.lastSeenAt} /></td>
              <td className={`${TD} text-right tabular-nums`}>{r.depth.toLocaleString("en-US")}</td>
              <td className={TD}><Age iso={r.oldestAt} /></td>
              <td className={`${TD} text-right tabular-nums`}>{(r.errorRate * 100).toFixed(r.errorRate > 0 && r.errorRate < 0.1 ? 1 : 0)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
