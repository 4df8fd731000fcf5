import { describe, expect, it } from "vitest";
import { joinQuery, parseSearch, queryTerm } from "./search-params";

describe("parseSearch", () => {
  it("takes the first q, trimmed", () => {
    expect(parseSearch({ q: "  status:dead " })).toEqual({ q: "status:dead" });
    expect(parseSearch({ q: ["a", "b"] })).toEqual({ q: "a" });
    expect(parseSearch({})).toEqual({ q: "" });
  });
  it("keeps a query too long to run, for the parser to say so under the box", () => {
    expect(parseSearch({ q: "x".repeat(3000) })).toEqual({ q: "x".repeat(3000) });
  });
});

describe("joinQuery / queryTerm", () => {
  it("joins non-empty parts with a space", () => {
    expect(joinQuery("agent:leader", "  ", "status:dead")).toBe("agent:leader status:dead");
    expect(joinQuery("agent:leader", undefined)).toBe("agent:leader");
  });
  it("quotes values with spaces", () => {
    expect(queryTerm("thread", "thr_readme_42")).toBe("thread:thr_readme_42");
    expect(queryTerm("from", "Kick La Metta")).toBe('from:"Kick La Metta"');
  });
});
