"use client";

import { formatDuration, formatLocal, formatUtcShort, parseTime } from "@/lib/client/time";
import { useSeconds } from "@/lib/client/use-seconds";

/**
 * The backoff the file itself names for its next attempt: "backoff ends in 12 s", counting down
 * every second, then "backoff over". Only what the file says, never when the agents' system will
 * act: IGNITE's queue monitor ignores that header today and delivers a queued message at its next
 * poll. The server renders the time itself; the countdown starts after hydration.
 */
export const BACKOFF_HELP =
  "The backoff the file asks for (Next-Retry-After), not when the message will be picked up: " +
  "the queue monitor ignores it today and delivers a queued message at its next poll.";

export function RetryCountdown({ iso, className }: { iso: string | null; className?: string }) {
  const now = useSeconds();
  const t = parseTime(iso);
  if (t === null || iso === null) return null;
  if (now === null) {
    return (
      <time dateTime={iso} className={className}>
        {`backoff until ${formatUtcShort(t)}`}
      </time>
    );
  }
  const left = t - now;
  return (
    <time dateTime={iso} title={`${BACKOFF_HELP} It names ${formatLocal(t)}.`} className={className}>
      {left > 0 ? `backoff ends in ${formatDuration(Math.ceil(left / 1000) * 1000)}` : "backoff over"}
    </time>
  );
}
