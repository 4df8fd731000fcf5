import Form from "next/form";
import Link from "next/link";
import { buttonClass } from "../ui/button";
import { QueryHelp } from "./query-help";
import { SearchBox } from "./search-box";

/**
 * The search box: a GET form, so it works without JavaScript; with it, next/form navigates
 * client-side with a history push (the back button returns to the previous search). `fixed`
 * is a part of the query the page always applies; `keep` are other parameters to carry along.
 */
export function SearchForm({
  action,
  q,
  error,
  fixed,
  keep,
}: {
  action: string;
  q: string;
  error?: string | null;
  fixed?: string;
  keep?: Record<string, string>;
}) {
  return (
    <Form action={action} role="search" className="space-y-1.5">
      <label htmlFor="q" className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Search messages
      </label>
      {Object.entries(keep ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {/* Remounts on a new q (a search, back or forward), so the box shows the query of the page. */}
      <SearchBox key={q} q={q} error={error ?? null} fixed={fixed}>
        <button type="submit" className={buttonClass("primary")}>
          Search
        </button>
        {q ? (
          <Link href={withKeep(action, keep)} className={buttonClass("ghost")}>
            Clear
          </Link>
        ) : null}
      </SearchBox>
      <QueryHelp id="q-help" action={action} />
    </Form>
  );
}

function withKeep(action: string, keep?: Record<string, string>): string {
  const qs = new URLSearchParams(keep).toString();
  return qs ? `${action}?${qs}` : action;
}
