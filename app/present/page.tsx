import type { Metadata } from "next";
import { connection } from "next/server";
import { Presenter } from "./_components/presenter";
import { TICKER_SIZE } from "@/lib/client/presenter";
import { sourcesHealth } from "@/lib/ingest/source-state";
import { getClientConfig, getStats, getThread, listMessages, listSources, listThreads } from "@/lib/journal";

export const metadata: Metadata = { title: "Presenter" };

/**
 * The presenter view: made for a projector (1280×720) and a big screen. The newest live thread,
 * drawn as it grows, a ticker of every protocol's latest messages and the team's health; keys
 * switch thread, view and protocol, so it needs no mouse once open.
 */
export default async function PresentPage() {
  await connection();
  const { pollMs } = getClientConfig();
  const threads = listThreads({});
  const newest = threads.items[0];
  const protocols = [...new Set(listSources().map((s) => s.protocol))];
  const health = await sourcesHealth().catch(() => null);
  return (
    <Presenter
      initial={{
        threads,
        thread: newest ? getThread(newest.id) : null,
        recent: listMessages({ limit: TICKER_SIZE }),
        stats: getStats(),
        health,
        protocols,
      }}
      pollMs={pollMs}
    />
  );
}
