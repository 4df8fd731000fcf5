import { errorMessage } from "@/lib/client/fetcher";
import { Notice } from "./ui/notice";

/** Says when a live view stopped updating: its subject left the journal, or polling failed. */
export function LiveStatus({ gone, goneTitle, error }: { gone: boolean; goneTitle: string; error: unknown }) {
  return (
    <div aria-live="polite">
      {gone ? (
        <Notice tone="warning" title={goneTitle}>
          <p>What you see is the last known state.</p>
        </Notice>
      ) : error ? (
        <p className="text-sm text-red-700 dark:text-red-400">Live updates paused: {errorMessage(error)}</p>
      ) : null}
    </div>
  );
}
