import { cn } from "./ui/cn";

/**
 * Files read of the first scan, as a progress bar (role="progressbar" with aria-valuenow) and
 * as text. `total` 0 means not counted yet: the bar is indeterminate until it is.
 */
export function IndexingProgress({ files, total, label, className }: { files: number; total: number; label: string; className?: string }) {
  const known = total > 0;
  const done = Math.min(files, total);
  const percent = known ? Math.round((done / total) * 100) : 0;
  const text = known ? `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} files` : "counting files";
  return (
    <span className={cn("inline-flex items-center gap-1.5", className)}>
      <span
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={known ? total : undefined}
        aria-valuenow={known ? done : undefined}
        aria-valuetext={known ? `${text} (${percent}%)` : text}
        className="relative h-1.5 w-20 shrink-0 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
      >
        <span
          className={cn("absolute inset-y-0 left-0 rounded-full bg-amber-500", !known && "w-1/3 animate-pulse")}
          style={known ? { width: `${percent}%` } : undefined}
        />
      </span>
      <span aria-hidden className="tabular-nums">
        {known ? `${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")}` : "…"}
      </span>
    </span>
  );
}
