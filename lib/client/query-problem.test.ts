import { describe, expect, it } from "vitest";
import { VOCABULARY as WORDS } from "@/lib/protocols";
import { queryProblem } from "./query-problem";

describe("queryProblem", () => {
  it("is null for a good search", () => {
    expect(queryProblem("status:dead -from:leader after:-1h \"a phrase\"", WORDS)).toBeNull();
    expect(queryProblem("", WORDS)).toBeNull();
  });

  it("names the position and what was expected, as the API does", () => {
    expect(queryProblem("status:dead colour:red", WORDS)).toMatch(/^Bad search: unknown field "colour:".*\(at position 13\)$/);
    expect(queryProblem("status:deadish", WORDS)).toMatch(/expected one of queued/);
  });

  it("holds a box to the limits left beside the part its page adds, at positions in the box", () => {
    const terms = (n: number) => Array.from({ length: n }, () => "a").join(" ");
    expect(queryProblem(terms(100), WORDS)).toBeNull();
    expect(queryProblem(terms(99), WORDS, { fixed: "agent:leader" })).toBeNull();
    expect(queryProblem(terms(100), WORDS, { fixed: "agent:leader" })).toBe("Bad search: too many terms: a search has at most 99 (at position 199)");
    expect(queryProblem("x".repeat(1990), WORDS, { fixed: "agent:leader" })).toBe(
      "Bad search: the search is 1990 characters long: at most 1987 (at position 1988)",
    );
  });
});
