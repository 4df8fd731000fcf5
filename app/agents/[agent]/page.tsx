import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { LiveAgentStats } from "./_components/live-agent-stats";
import { ChartsPanel } from "@/components/charts/charts-panel";
import { RangePicker } from "@/components/range-picker";
import { TimelineSection } from "@/components/timeline/timeline-section";
import { routes } from "@/lib/client/keys";
import { parseSearch, queryTerm } from "@/lib/client/search-params";
import { getClientConfig, getStats } from "@/lib/journal";
import { agentAt } from "./agent-param";
import { rangeOrAll } from "@/lib/query/range";

type Props = {
  params: Promise<{ agent: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { agents } = getStats();
  return { title: agentAt((await params).agent, (name) => agents.some((a) => a.agent === name)) ?? "Agent" };
}

export default async function AgentPage({ params, searchParams }: Props) {
  await connection();
  const stats = getStats();
  const agent = agentAt((await params).agent, (name) => stats.agents.some((a) => a.agent === name));
  if (agent === null) notFound();
  const raw = await searchParams;
  const { q } = parseSearch(raw);
  const range = rangeOrAll(raw);
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-5">
      <div>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          <Link href="/agents" className="hover:underline">
            Agents
          </Link>
        </p>
        <h1 className="font-mono text-xl font-semibold tracking-tight">{agent}</h1>
      </div>
      <LiveAgentStats agent={agent} initial={stats} pollMs={pollMs} />
      <RangePicker />
      <ChartsPanel range={range} agent={agent} pollMs={pollMs} />
      <TimelineSection action={routes.agent(agent)} q={q} fixed={queryTerm("agent", agent)} range={range} pollMs={pollMs} />
    </div>
  );
}
