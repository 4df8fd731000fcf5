/** A labelled progress bar (a real <progress>, styled). `max` 0 means not known yet: the bar is indeterminate. */
export function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  return (
    <progress
      aria-label={label}
      // Without a value a <progress> is indeterminate, where value 0 of max 1 would read as "0%".
      value={max > 0 ? Math.min(value, max) : undefined}
      max={max > 0 ? max : undefined}
      className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800 [&::-moz-progress-bar]:bg-sky-500 [&::-webkit-progress-bar]:bg-zinc-200 dark:[&::-webkit-progress-bar]:bg-zinc-800 [&::-webkit-progress-value]:bg-sky-500"
    />
  );
}
