"use client";

import { formatDuration, formatLocal, formatRelative, formatUtc, formatUtcShort, parseTime } from "@/lib/client/time";
import { useNow } from "@/lib/client/use-now";
import { useServerNow } from "./server-now";
import { cn } from "./ui/cn";

/**
 * A date in the viewer's local time and/or as a relative age. Until hydrated, the age is counted
 * from the server's clock (useServerNow) and a date is in UTC; then from the browser's clock, and
 * local. A UTC date swapped for its age after hydration made a thread list's rows 20 px shorter,
 * and moved them under a click.
 */
export function RelativeTime({
  iso,
  variant = "relative",
  empty = "—",
  className,
}: {
  iso: string | null;
  variant?: "relative" | "absolute" | "both";
  empty?: string;
  className?: string;
}) {
  const now = useNow();
  const serverNow = useServerNow();
  const t = parseTime(iso);
  if (t === null || iso === null) return <span className={cn("text-zinc-500 dark:text-zinc-400", className)}>{empty}</span>;
  if (now === null) {
    const before = variant !== "relative" ? formatUtc(t) : serverNow === null ? formatUtcShort(t) : formatRelative(t, serverNow);
    return (
      <time dateTime={iso} title={formatUtc(t)} className={className}>
        {before}
      </time>
    );
  }
  const local = formatLocal(t);
  const relative = formatRelative(t, now);
  return (
    <time dateTime={iso} title={variant === "relative" ? local : relative} className={className}>
      {variant === "relative" ? relative : variant === "absolute" ? local : `${local} · ${relative}`}
    </time>
  );
}

/** How long ago `iso` was, as a bare duration ("12 min"): the age of the oldest queued message. */
export function Age({ iso, className }: { iso: string | null; className?: string }) {
  const now = useNow();
  const serverNow = useServerNow();
  const from = now ?? serverNow;
  const t = parseTime(iso);
  if (t === null || iso === null) return <span className={cn("text-zinc-500 dark:text-zinc-400", className)}>—</span>;
  return (
    <time dateTime={iso} title={now === null ? formatUtc(t) : formatLocal(t)} className={className}>
      {from === null ? formatUtc(t) : formatDuration(Math.max(0, from - t))}
    </time>
  );
}
