"use client";

import { AgentStatsCard } from "@/components/agent-stats-card";
import { useStats } from "@/lib/client/use-stats";
import type { Stats } from "@/lib/model";

/** The agent's stats card(s), kept current by the shared stats poll. */
export function LiveAgentStats({ agent, initial, pollMs }: { agent: string; initial: Stats; pollMs?: number }) {
  const { data = initial } = useStats(initial, pollMs);
  const rows = data.agents.filter((a) => a.agent === agent);
  return (
    <div className="space-y-3">
      {rows.map((a) => (
        <AgentStatsCard key={a.source} stats={a} showSource={rows.length > 1} />
      ))}
    </div>
  );
}
