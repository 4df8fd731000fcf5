import type { PageLoading } from "@/lib/model";
import { formatUtc } from "@/lib/client/time";

/**
 * While the first scan loads (newest first), how far it is, so a list that is still filling is
 * not taken for the whole journal: filters and search cover only what is loaded. Always rendered
 * (empty when done), so screen readers hear each change of the live region.
 */
export function LoadingStatus({ loading, filtered }: { loading: PageLoading | undefined; filtered: boolean }) {
  return (
    <p role="status" aria-live="polite" className="text-xs text-amber-800 dark:text-amber-300">
      {loading ? describeLoading(loading, filtered) : null}
    </p>
  );
}

export function describeLoading({ loaded, total, completeAfter }: PageLoading, filtered: boolean): string {
  const of = total > 0 ? ` of ${total.toLocaleString("en-US")}` : "";
  const after = completeAfter === null ? null : Date.parse(completeAfter);
  // A claim before 1970 is "everything read": only the scan's last steps are left.
  const complete =
    after === null
      ? "Messages still loading may belong anywhere in this list."
      : after >= 0
        ? `Every message after ${formatUtc(after)} is here; older ones are still loading.`
        : "Every file is read; the last steps are under way.";
  const scope = filtered ? " This search covers only what is loaded so far." : "";
  // "Newest" only when the scan says how far the newest are in (a rescan at start reads in no such order).
  const newest = after === null ? "" : "newest ";
  return `Loading the workspace: ${newest}${loaded.toLocaleString("en-US")}${of} files loaded. ${complete}${scope}`;
}
