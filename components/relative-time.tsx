"use client";

import { formatDuration, formatLocal, formatRelative, formatUtc, formatUtcShort, parseTime } from "@/lib/client/time";
import { useNow } from "@/lib/client/use-now";
import { cn } from "./ui/cn";

/**
 * A date in the viewer's local time and/or as a relative age. The server renders the UTC time;
 * the client swaps in local time and "3 min ago" after hydration (no mismatch).
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
  const t = parseTime(iso);
  if (t === null || iso === null) return <span className={cn("text-zinc-500 dark:text-zinc-400", className)}>{empty}</span>;
  if (now === null) {
    return (
      <time dateTime={iso} title={formatUtc(t)} className={className}>
        {variant === "relative" ? formatUtcShort(t) : formatUtc(t)}
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
  const t = parseTime(iso);
  if (t === null || iso === null) return <span className={cn("text-zinc-500 dark:text-zinc-400", className)}>—</span>;
  return (
    <time dateTime={iso} title={now === null ? formatUtc(t) : formatLocal(t)} className={className}>
      {now === null ? formatUtc(t) : formatDuration(Math.max(0, now - t))}
    </time>
  );
}
