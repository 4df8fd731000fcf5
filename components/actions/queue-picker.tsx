import { DEAD_LETTER_FOLDER } from "@/lib/model";

/** Which queue to requeue into: the original's (default) or any other agent's. */
export function QueuePicker({
  id,
  value,
  onChange,
  queues,
  original,
  originalLabel = "original queue",
}: {
  id: string;
  value: string;
  onChange: (queue: string) => void;
  queues: string[];
  /** The original's queue; "" when each message goes back to its own. */
  original: string | null;
  originalLabel?: string;
}) {
  const names = [...new Set([...(original ? [original] : []), ...queues])].filter((q) => q !== DEAD_LETTER_FOLDER);
  return (
    <span className="inline-flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Queue
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {original === "" ? <option value="">each message&apos;s {originalLabel}</option> : null}
        {original === null && !names.includes(value) ? (
          <option value="" disabled>
            Choose a queue
          </option>
        ) : null}
        {names.map((q) => (
          <option key={q} value={q}>
            {q === original ? `${q} (${originalLabel})` : q}
          </option>
        ))}
      </select>
    </span>
  );
}
