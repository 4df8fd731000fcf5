import Form from "next/form";
import Link from "next/link";
import { buttonClass } from "../ui/button";
import { cn } from "../ui/cn";
import { QueryHelp } from "./query-help";

/**
 * The search box: a GET form, so it works without JavaScript (next/form adds client-side
 * navigation when it is there). `fixed` is a part of the query the page always applies.
 */
export function SearchForm({
  action,
  q,
  error,
  fixed,
}: {
  action: string;
  q: string;
  error?: string | null;
  fixed?: string;
}) {
  const describedBy = error ? "q-help q-error" : "q-help";
  return (
    <Form action={action} role="search" className="space-y-1.5">
      <label htmlFor="q" className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Search messages
      </label>
      <div className="flex gap-2">
        <div
          className={cn(
            "flex min-w-0 flex-1 items-center rounded-md border bg-white focus-within:ring-2 focus-within:ring-sky-500 dark:bg-zinc-900",
            error ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700",
          )}
        >
          {fixed ? (
            <span className="ml-2 shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
              {fixed}
            </span>
          ) : null}
          <input
            key={q}
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            placeholder='e.g. status:dead   type:task_assignment   "README"'
            autoComplete="off"
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            className="min-w-0 flex-1 bg-transparent px-3 py-1.5 font-mono text-sm outline-none placeholder:text-zinc-400 dark:placeholder:text-zinc-500"
          />
        </div>
        <button type="submit" className={buttonClass("primary")}>
          Search
        </button>
        {q ? (
          <Link href={action} className={buttonClass("ghost")}>
            Clear
          </Link>
        ) : null}
      </div>
      {error ? (
        <p id="q-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <QueryHelp id="q-help" action={action} />
    </Form>
  );
}
