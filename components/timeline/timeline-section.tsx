import "server-only";
import { PAGE_SIZE } from "@/lib/client/config";
import { queryProblem } from "@/lib/client/query-problem";
import { joinQuery } from "@/lib/client/search-params";
import { ALL_TIME, rangeQuery, rangeSearchParams, type TimeRange } from "@/lib/query/range";
import { holdsSeveralProtocols, listMessages } from "@/lib/journal";
import { VOCABULARY } from "@/lib/protocols";
import { ApiError } from "@/lib/server/errors";
import { SearchForm } from "./search-form";
import { Timeline } from "./timeline";

/**
 * Search box + live timeline for a page (server component): runs the first page of
 * `fixed + range + q` and hands it to the client timeline. A bad query shows under the box.
 * `pageSize` (from `?limit=`) sets the size of every page and is carried by the search form, as
 * is the time range (the page's range picker), whose after:/before: terms are part of the fixed query.
 */
export function TimelineSection({
  action,
  q,
  fixed: pageFixed,
  range = ALL_TIME,
  pollMs,
  pageSize,
}: {
  action: string;
  q: string;
  fixed?: string;
  range?: TimeRange;
  pollMs: number;
  pageSize?: number;
}) {
  const fixed = joinQuery(pageFixed, rangeQuery(range)) || undefined;
  const effective = joinQuery(fixed, q);
  let page;
  let error: string | null = null;
  try {
    page = listMessages({ q: effective, limit: pageSize ?? PAGE_SIZE });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    // Positions count from the start of the box, not of the fixed part the page adds.
    error = (fixed ? queryProblem(q, VOCABULARY, { fixed }) : null) ?? err.message;
  }
  const keep = { ...(pageSize ? { limit: String(pageSize) } : {}), ...rangeSearchParams(range) };

  return (
    <div className="space-y-4">
      <SearchForm action={action} q={q} fixed={fixed} error={error} keep={keep} />
      {page ? (
        <Timeline
          key={`${effective}\0${pageSize ?? ""}`}
          q={effective}
          initial={page}
          pollMs={pollMs}
          pageSize={pageSize}
          empty={q ? "No messages match this search." : range.kind !== "all" ? "No messages in this time range." : "No messages yet. They appear here as agents write them."}
          showProtocol={holdsSeveralProtocols()}
          searched={q !== ""}
        />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-10 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          Fix the search above to see messages.
        </p>
      )}
    </div>
  );
}
