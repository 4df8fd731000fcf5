import Link from "next/link";
import { Fragment } from "react";

const FIELDS = ["from:", "to:", "agent:", "type:", "priority:", "status:", "folder:", "thread:"];
const SYNTAX: [string, string][] = [
  ["from: to: agent:", "sender, recipient, whose queue holds it (* as a wildcard: from:ignitian_*)"],
  ["type: priority: status: folder:", "exact values; status: and folder: take the listed words"],
  ["thread: repo: issue: mid: path:", "thread id, repository, issue number, Message-ID, any part of the file path"],
  ["protocol: source:", "ignite (or v3), ignite-yaml (or v2), shogun, workflow, kicklang; a source id such as myapp-ignite (* as a wildcard)"],
  ["before: after:", "a date in UTC (2026-11-20, 2026-11-20T09:30, or with an offset: 2026-11-20T09:30+09:00) or a time ago: -30m, -1h, -2d"],
  ["retries>N", "also retries>=N, retries<N, retries:N"],
  ["is:", "stuck, duplicate, dead, gone (file deleted, kept in the journal)"],
  ["has:", "problem, thread, reply, retries"],
  ["-field:value", "leaves out what matches (negation)"],
  ['"a phrase", words', "full text of the bodies"],
];
const EXAMPLES = [
  "status:dead",
  "is:stuck",
  "after:-1h",
  "type:task_assignment -status:delivered",
  "from:leader after:-2d",
  '"README"',
  "has:problem",
];

const code = "rounded bg-zinc-100 px-1 font-mono text-[0.8em] text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300";

/** What the search box understands, with examples to click. */
export function QueryHelp({ id, action }: { id: string; action: string }) {
  return (
    <div id={id} className="text-xs leading-relaxed text-zinc-500 dark:text-zinc-400">
      <p>
        Filter with{" "}
        {/* A space after each: a line can break between them on a narrow screen. */}
        {FIELDS.map((f) => (
          <Fragment key={f}>
            <code className={code}>{f}</code>{" "}
          </Fragment>
        ))}
        and more; <code className={code}>-field:value</code> excludes, <code className={code}>&quot;a phrase&quot;</code> or bare
        words search the text. Type a field name for suggestions: ↑ ↓ choose, Enter or Tab take. Press{" "}
        <kbd className={code}>?</kbd> for keyboard shortcuts.
      </p>
      <details className="mt-0.5">
        <summary className="cursor-pointer select-none rounded-sm hover:text-zinc-700 dark:hover:text-zinc-200">
          Search syntax and examples
        </summary>
        <dl className="mt-1 grid gap-x-4 gap-y-0.5 sm:grid-cols-[max-content_1fr]">
          {SYNTAX.map(([term, meaning]) => (
            <div key={term} className="contents">
              <dt>
                <code className={code}>{term}</code>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-1">
          Terms combine with AND. Try:{" "}
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
