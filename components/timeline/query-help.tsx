import Link from "next/link";

const FIELDS = ["from:", "to:", "agent:", "type:", "priority:", "status:", "folder:", "mid:", "path:"];
const MORE = ["thread:", "repo:", "issue:", "before:", "after:", "retries>N", "is:stuck", "has:problem"];
const EXAMPLES = ["status:dead", "is:stuck", "type:task_assignment -status:delivered", "after:-1h"];

const code = "rounded bg-zinc-100 px-1 font-mono text-[0.8em] text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300";

/** What the search box understands, with a few examples to click. */
export function QueryHelp({ id, action }: { id: string; action: string }) {
  return (
    <div id={id} className="text-xs leading-relaxed text-zinc-500 dark:text-zinc-400">
      <p>
        Filter with{" "}
        {FIELDS.map((f) => (
          <code key={f} className={`${code} mr-1`}>
            {f}
          </code>
        ))}
        , <code className={code}>-field:value</code> to exclude, <code className={code}>&quot;a phrase&quot;</code> or bare words for
        full text.
      </p>
      <details className="mt-0.5">
        <summary className="cursor-pointer select-none rounded-sm hover:text-zinc-700 dark:hover:text-zinc-200">
          More filters and examples
        </summary>
        <p className="mt-1">
          Also{" "}
          {MORE.map((f) => (
            <code key={f} className={`${code} mr-1`}>
              {f}
            </code>
          ))}
          (dates: <code className={code}>2026-11-20</code> or relative like <code className={code}>-30m</code>).
        </p>
        <p className="mt-1">
          Try:{" "}
          {EXAMPLES.map((ex) => (
            <Link
              key={ex}
              href={`${action}?q=${encodeURIComponent(ex)}`}
              className="mr-2 font-mono text-sky-700 underline-offset-2 hover:underline dark:text-sky-400"
            >
              {ex}
            </Link>
          ))}
        </p>
      </details>
    </div>
  );
}
