import { parseQuery, QueryError } from "@/lib/query";

/**
 * What is wrong with a search, worded as the API's 400 words it ("Bad search: … (at position N)"),
 * or null. The parser is the server's own, so the box can say it while the reader types.
 */
export function queryProblem(q: string, now: number = Date.now()): string | null {
  try {
    parseQuery(q, now);
    return null;
  } catch (err) {
    if (err instanceof QueryError) return `Bad search: ${err.message}`;
    throw err;
  }
}
