import { describe, expect, it } from "vitest";
import { searchParamsObject } from "./params";

describe("searchParamsObject", () => {
  it("takes the first of a repeated parameter, as the pages do", () => {
    expect(searchParamsObject("http://x/api/messages?q=a&limit=5&q=b")).toEqual({ q: "a", limit: "5" });
  });
});
