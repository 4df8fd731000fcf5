import { buttonClass } from "../ui/button";
import { countOf } from "@/lib/client/count";

/** Below the list: how many are loaded, and a "Load older" button for keyboard and screen-reader users. */
export function TimelineFooter({
  count,
  hasOlder,
  loading,
  error,
  filtered,
  onLoadOlder,
}: {
  count: number;
  hasOlder: boolean;
  loading: boolean;
  error: string | null;
  filtered: boolean;
  onLoadOlder: () => void;
}) {
  const loaded = countOf(count, "message");
  return (
    <div className="flex flex-col items-center gap-1 py-2">
      {hasOlder ? (
        <>
          <button type="button" onClick={onLoadOlder} disabled={loading} className={buttonClass("secondary")}>
            {loading ? "Loading…" : "Load older"}
          </button>
          <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
            {loaded} loaded; older ones load as you scroll.
          </p>
        </>
      ) : count > 0 ? (
        <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {loaded}. That is everything{filtered ? " that matches" : ""}.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
