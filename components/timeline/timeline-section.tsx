import "server-only";
import { PAGE_SIZE } from "@/lib/client/config";
import { joinQuery } from "@/lib/client/search-params";
import { listMessages } from "@/lib/journal";
import { ApiError } from "@/lib/server/errors";
import { SearchForm } from "./search-form";
import { Timeline } from "./timeline";

/**
 * Search box + live timeline for a page (server component): runs the first page of
 * `fixed + q` and hands it to the client timeline. A bad query shows under the box.
 */
export function TimelineSection({ action, q, fixed, pollMs }: { action: string; q: string; fixed?: string; pollMs: number }) {
  const effective = joinQuery(fixed, q);
  let page;
  let error: string | null = null;
  try {
    page = listMessages({ q: effective, limit: PAGE_SIZE });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    error = err.message;
  }

  return (
    <div className="space-y-4">
      <SearchForm action={action} q={q} fixed={fixed} error={error} />
      {page ? (
        <Timeline
          key={effective}
          q={effective}
          initial={page}
          pollMs={pollMs}
          empty={q ? "No messages match this search." : "No messages yet. They appear here as agents write them."}
        />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-10 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          Fix the search above to see messages.
        </p>
      )}
    </div>
  );
}
