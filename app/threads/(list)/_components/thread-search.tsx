import Form from "next/form";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { routes } from "@/lib/client/keys";

const EXAMPLES = ["status:dead", "is:stuck", "agent:ignitian_2", "readme"];

/** A GET form: `q` uses the message search syntax; a thread is listed when one of its messages matches. `keep`: other parameters (the range) it carries. */
export function ThreadSearch({ q, error, keep = {} }: { q: string; error: string | null; keep?: Record<string, string> }) {
  return (
    <Form action={routes.threads()} role="search" className="space-y-1.5">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="thread-q" className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Search threads
      </label>
      <div className="flex gap-2">
        <input
          key={q}
          id="thread-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="e.g. status:dead   is:stuck   repo:owner/repo   thr_readme"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={error ? "thread-q-help thread-q-error" : "thread-q-help"}
          aria-invalid={error ? true : undefined}
          className={cn(
            "min-w-0 flex-1 rounded-md border bg-white px-3 py-1.5 font-mono text-sm outline-none focus:ring-2 focus:ring-sky-500 dark:bg-zinc-900",
            error ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700",
          )}
        />
        <button type="submit" className={buttonClass("primary")}>Search</button>
        {q ? <Link href={routes.threads()} className={buttonClass("ghost")}>Clear</Link> : null}
      </div>
      {error ? (
        <p id="thread-q-error" role="alert" className="text-sm text-red-700 dark:text-red-400">{error}</p>
      ) : null}
      <p id="thread-q-help" className="text-xs text-zinc-500 dark:text-zinc-400">
        The message search (<code className="font-mono">from: to: type: status: repo: is:stuck</code>, words for body text): a thread is listed when
        one of its messages matches. A single word also matches thread ids. Try{" "}
        {EXAMPLES.map((ex) => (
          <Link key={ex} href={routes.threads(ex)} className="mr-2 font-mono text-sky-700 hover:underline dark:text-sky-400">
            {ex}
          </Link>
        ))}
      </p>
    </Form>
  );
}
