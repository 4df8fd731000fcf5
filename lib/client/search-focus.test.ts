import { describe, expect, it } from "vitest";
import { focusSearchOnArrival, takeSearchFocus } from "./search-focus";

describe("search focus across a navigation", () => {
  it("is taken once, by the first search box that asks", () => {
    expect(takeSearchFocus()).toBe(false);
    focusSearchOnArrival();
    expect(takeSearchFocus()).toBe(true);
    expect(takeSearchFocus()).toBe(false);
  });
});
