"use client";

import { formatDuration, formatLocal, formatUtcShort, parseTime } from "@/lib/client/time";
import { useSeconds } from "@/lib/client/use-seconds";

/**
 * When a retrying message may be picked up again: "retry in 12 s", counting down every second,
 * then "retry due". The server renders the time itself; the countdown starts after hydration.
 */
export function RetryCountdown({ iso, className }: { iso: string | null; className?: string }) {
  const now = useSeconds();
  const t = parseTime(iso);
  if (t === null || iso === null) return null;
  if (now === null) {
    return (
      <time dateTime={iso} className={className}>
        {`retry after ${formatUtcShort(t)}`}
      </time>
    );
  }
  const left = t - now;
  return (
    <time dateTime={iso} title={`Next retry after ${formatLocal(t)}`} className={className}>
      {left > 0 ? `retry in ${formatDuration(Math.ceil(left / 1000) * 1000)}` : "retry due"}
    </time>
  );
}
