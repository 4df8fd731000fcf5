import { connection } from "next/server";
import { NoWorkspace } from "./_components/no-workspace";
import { OverviewLive } from "./_components/overview-live";
import { SourcesNotice } from "./_components/sources-notice";
import { TeamHealth } from "./_components/team-health";
import { ChartsPanel } from "@/components/charts/charts-panel";
import { RangePicker } from "@/components/range-picker";
import { RECENT_LIMIT } from "@/lib/client/config";
import { sourcesHealth } from "@/lib/ingest/source-state";
import { getClientConfig, getStats, hasWorkspaces, holdsSeveralProtocols, listMessages, listSources } from "@/lib/journal";
import { rangeOrAll } from "@/lib/query/range";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const range = rangeOrAll(await searchParams);
  const sources = listSources();
  const { pollMs } = getClientConfig();
  // Drawn with the page, not after it (see useSourceHealth); a state file that fails is the poll's to say.
  const health = hasWorkspaces() ? await sourcesHealth().catch(() => null) : null;

  return (
    <div className="space-y-5">
      <h1 className="text-xl font-semibold tracking-tight">Overview</h1>
      {!hasWorkspaces() ? (
        <NoWorkspace />
      ) : (
        <>
          <SourcesNotice initial={sources} pollMs={pollMs} />
          <TeamHealth initial={health} pollMs={pollMs} multiSource={sources.length !== 1} />
          <OverviewLive stats={getStats()} recent={listMessages({ limit: RECENT_LIMIT })} pollMs={pollMs} showProtocol={holdsSeveralProtocols()} />
          <RangePicker />
          <ChartsPanel range={range} pollMs={pollMs} />
        </>
      )}
    </div>
  );
}
