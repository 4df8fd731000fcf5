import type { Metadata } from "next";
import { connection } from "next/server";
import { TimelineSection } from "@/components/timeline/timeline-section";
import { parseSearch } from "@/lib/client/search-params";
import { routes } from "@/lib/client/keys";
import { getClientConfig } from "@/lib/journal";

export const metadata: Metadata = { title: "Messages" };

export default async function MessagesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const { q } = parseSearch(await searchParams);
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Messages</h1>
      <TimelineSection action={routes.messages()} q={q} pollMs={pollMs} />
    </div>
  );
}
