import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { RangePicker } from "@/components/range-picker";
import { TimelineSection } from "@/components/timeline/timeline-section";
import { parseSearch } from "@/lib/client/search-params";
import { routes } from "@/lib/client/keys";
import { getClientConfig } from "@/lib/journal";
import { rangeOrAll } from "@/lib/query/range";

export const metadata: Metadata = { title: "Messages" };

/** `?limit=` sets the page size (1–500, as the API allows); anything else means the default. */
const limitSchema = z.object({ limit: z.coerce.number().int().min(1).max(500) });

export default async function MessagesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const raw = await searchParams;
  const { q } = parseSearch(raw);
  const limit = limitSchema.safeParse(raw);
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Messages</h1>
      <RangePicker />
      <TimelineSection action={routes.messages()} q={q} range={rangeOrAll(raw)} pollMs={pollMs} pageSize={limit.success ? limit.data.limit : undefined} />
    </div>
  );
}
