import { limitsBeside, parseQuery, QueryError, type SearchWords } from "@/lib/query";

/**
 * What is wrong with a search, worded as the API's 400 words it ("Bad search: … (at position N)"),
 * or null. The parser is the server's own, so the box can say it while the reader types. `fixed`
 * is what the page adds to the box (`agent:leader`), which takes its share of the limits.
 */
export function queryProblem(q: string, words: SearchWords, opts: { fixed?: string; now?: number } = {}): string | null {
  try {
    parseQuery(q, words, opts.now ?? Date.now(), limitsBeside(opts.fixed, words));
    return null;
  } catch (err) {
    if (err instanceof QueryError) return `Bad search: ${err.message}`;
    throw err;
  }
}
