import type { Metadata } from "next";
import { connection } from "next/server";
import { getClientConfig, getStats } from "@/lib/journal";
import { sourcesHealth } from "@/lib/ingest/source-state";
import { AgentsBoard } from "./_components/agents-board";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  await connection();
  const { pollMs } = getClientConfig();
  const health = await sourcesHealth().catch(() => null);

  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-xl font-semibold tracking-tight">Agents</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every agent of every workspace, whatever its protocol: alive or not (as its workspace records it), what waits for it and
          since when, and how often its messages fail. Those that need a look come first; any column sorts.
        </p>
      </div>
      <AgentsBoard initialStats={getStats()} initialHealth={health} pollMs={pollMs} />
    </div>
  );
}
