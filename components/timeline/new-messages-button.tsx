import { countOf } from "@/lib/client/count";
import { PENDING_LIMIT } from "@/lib/client/timeline";
import { buttonClass } from "../ui/button";

/**
 * "3 new messages": shows what the poll held back. Past PENDING_LIMIT (a first scan, a big rescan)
 * the list loads its newest page afresh instead, and the button says so.
 */
export function NewMessagesButton({
  count,
  overflow,
  loading,
  error,
  onShow,
}: {
  count: number;
  overflow: boolean;
  loading: boolean;
  error: string | null;
  onShow: () => void;
}) {
  if (count === 0 && !overflow) return null;
  const label = !overflow
    ? countOf(count, "new message")
    : count >= PENDING_LIMIT
      ? `More than ${countOf(PENDING_LIMIT, "new message")}: show the newest`
      : "New messages: show the newest";
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button type="button" onClick={onShow} disabled={loading} className={buttonClass("primary", "py-1")}>
        <span aria-hidden className="size-2 animate-pulse rounded-full bg-sky-400" />
        {loading ? "Loading the newest messages…" : label}
      </button>
      {error ? <span className="text-sm text-red-700 dark:text-red-400">Could not load them: {error}</span> : null}
    </span>
  );
}
