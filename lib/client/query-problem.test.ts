import { describe, expect, it } from "vitest";
import { queryProblem } from "./query-problem";

describe("queryProblem", () => {
  it("is null for a good search", () => {
    expect(queryProblem("status:dead -from:leader after:-1h \"a phrase\"")).toBeNull();
    expect(queryProblem("")).toBeNull();
  });

  it("names the position and what was expected, as the API does", () => {
    expect(queryProblem("status:dead colour:red")).toMatch(/^Bad search: unknown field "colour:".*\(at position 13\)$/);
    expect(queryProblem("status:deadish")).toMatch(/expected one of queued/);
  });
});
