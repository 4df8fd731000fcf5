"use client";

import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { MessageTable } from "@/components/timeline/message-table";
import { errorMessage } from "@/lib/client/fetcher";
import { routes } from "@/lib/client/keys";
import { useRecentMessages } from "@/lib/client/use-recent-messages";
import { useStats } from "@/lib/client/use-stats";
import type { MessagePage, Stats } from "@/lib/model";
import { AgentsTable } from "./agents-table";
import { RetryNotice } from "./retry-notice";
import { StuckNotice } from "./stuck-notice";
import { StatusTotals } from "./status-totals";

/**
 * The live part of the overview: totals, agents, recent activity (refetched when the journal moves).
 * `showProtocol`: the journal holds several protocols, so each recent message says which it speaks.
 */
export function OverviewLive({ stats, recent, pollMs, showProtocol = false }: { stats: Stats; recent: MessagePage; pollMs?: number; showProtocol?: boolean }) {
  const { data = stats, error } = useStats(stats, pollMs);
  const { items } = useRecentMessages(recent, data.seq);

  return (
    <div className="space-y-5">
      {error ? (
        <p role="status" className="text-sm text-red-700 dark:text-red-400">
          Live updates paused: {errorMessage(error)}
        </p>
      ) : null}
      <div aria-live="polite">
        <StuckNotice agents={data.agents} />
      </div>
      <RetryNotice agents={data.agents} />
      <StatusTotals totals={data.totals} />
      <Card>
        <CardHeader title="Agents" />
        <AgentsTable agents={data.agents} />
      </Card>
      <Card>
        <CardHeader title="Recent activity">
          <Link href={routes.messages()} className="text-sm text-sky-700 hover:underline dark:text-sky-400">
            All messages →
          </Link>
        </CardHeader>
        {items.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">No messages yet.</p>
        ) : (
          <MessageTable items={items} caption="The latest messages" compact showProtocol={showProtocol} />
        )}
      </Card>
    </div>
  );
}
