import type { Metadata } from "next";
import { connection } from "next/server";
import { ThreadList } from "./_components/thread-list";
import { ThreadSearch } from "./_components/thread-search";
import { RangePicker } from "@/components/range-picker";
import { joinQuery, parseSearch } from "@/lib/client/search-params";
import { rangeOrAll, rangeQuery, rangeSearchParams } from "@/lib/query/range";
import { getClientConfig, holdsSeveralProtocols, listThreads } from "@/lib/journal";
import { ApiError } from "@/lib/server/errors";

export const metadata: Metadata = { title: "Threads" };

export default async function ThreadsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const raw = await searchParams;
  const { q } = parseSearch(raw);
  const range = rangeOrAll(raw);
  // The range is the search's after:/before: terms: a thread is listed when a message of it is in the range.
  const effective = joinQuery(q, rangeQuery(range));
  const { pollMs } = getClientConfig();
  let list;
  let error: string | null = null;
  try {
    list = listThreads({ q: effective });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    error = err.message;
  }

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Threads</h1>
      <RangePicker />
      <ThreadSearch q={q} error={error} keep={rangeSearchParams(range)} />
      {list ? (
        <ThreadList key={effective} q={effective} initial={list} pollMs={pollMs} showProtocol={holdsSeveralProtocols()} />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-10 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          Fix the search above to see threads.
        </p>
      )}
    </div>
  );
}
