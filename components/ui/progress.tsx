/** A labelled progress bar (a real <progress>, styled). */
export function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  const safeMax = Math.max(max, 1);
  return (
    <progress
      aria-label={label}
      value={Math.min(value, safeMax)}
      max={safeMax}
      className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800 [&::-moz-progress-bar]:bg-sky-500 [&::-webkit-progress-bar]:bg-zinc-200 dark:[&::-webkit-progress-bar]:bg-zinc-800 [&::-webkit-progress-value]:bg-sky-500"
    />
  );
}
