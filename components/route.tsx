import { cn } from "./ui/cn";

/** "from → to, to2", with a readable fallback for unknown senders; a name cut short by its column is whole in its tooltip. */
export function MessageRoute({ from, to, className }: { from: string | null; to: string[]; className?: string }) {
  return (
    <span className={cn("inline-flex min-w-0 items-baseline gap-1", className)}>
      <span title={from ?? undefined} className={cn("truncate", from === null && "italic text-zinc-500 dark:text-zinc-400")}>{from ?? "unknown"}</span>
      <span aria-label="to" className="shrink-0 text-zinc-500 dark:text-zinc-400">
        →
      </span>
      <span title={to.length > 0 ? to.join(", ") : undefined} className={cn("truncate", to.length === 0 && "italic text-zinc-500 dark:text-zinc-400")}>
        {to.length > 0 ? to.join(", ") : "nobody"}
      </span>
    </span>
  );
}
