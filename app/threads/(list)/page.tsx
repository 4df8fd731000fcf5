import type { Metadata } from "next";
import { connection } from "next/server";
import { ThreadList } from "./_components/thread-list";
import { ThreadSearch } from "./_components/thread-search";
import { parseSearch } from "@/lib/client/search-params";
import { getClientConfig, listThreads } from "@/lib/journal";
import { ApiError } from "@/lib/server/errors";

export const metadata: Metadata = { title: "Threads" };

export default async function ThreadsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const { q } = parseSearch(await searchParams);
  const { pollMs } = getClientConfig();
  let list;
  let error: string | null = null;
  try {
    list = listThreads({ q });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    error = err.message;
  }

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Threads</h1>
      <ThreadSearch q={q} error={error} />
      {list ? (
        <ThreadList key={q} q={q} initial={list} pollMs={pollMs} />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-10 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          Fix the search above to see threads.
        </p>
      )}
    </div>
  );
}
