import { describe, expect, it } from "vitest";
import { focusSearchOnArrival, takeSearchFocus } from "./search-focus";

describe("search focus across a navigation", () => {
  it("is taken once, by the search box of the page it was asked for", () => {
    expect(takeSearchFocus("/messages", 0)).toBe(false);
    focusSearchOnArrival("/messages", 0);
    expect(takeSearchFocus("/messages", 300)).toBe(true);
    expect(takeSearchFocus("/messages", 400)).toBe(false);
  });

  it("lapses on another page, or when the page took too long", () => {
    focusSearchOnArrival("/messages", 0);
    expect(takeSearchFocus("/agents/leader", 100)).toBe(false);
    expect(takeSearchFocus("/messages", 200)).toBe(false);
    focusSearchOnArrival("/messages", 0);
    expect(takeSearchFocus("/messages", 60_000)).toBe(false);
  });
});
