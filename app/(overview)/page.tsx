import { connection } from "next/server";
import { NoWorkspace } from "./_components/no-workspace";
import { OverviewLive } from "./_components/overview-live";
import { SourcesNotice } from "./_components/sources-notice";
import { TeamHealth } from "./_components/team-health";
import { RECENT_LIMIT } from "@/lib/client/config";
import { getClientConfig, getStats, listMessages, listSources } from "@/lib/journal";

export default async function OverviewPage() {
  await connection();
  const sources = listSources();
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-5">
      <h1 className="text-xl font-semibold tracking-tight">Overview</h1>
      {sources.length === 0 ? (
        <NoWorkspace />
      ) : (
        <>
          <SourcesNotice initial={sources} pollMs={pollMs} />
          <TeamHealth pollMs={pollMs} multiSource={sources.length > 1} />
          <OverviewLive stats={getStats()} recent={listMessages({ limit: RECENT_LIMIT })} pollMs={pollMs} />
        </>
      )}
    </div>
  );
}
