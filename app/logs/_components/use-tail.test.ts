import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/client/fetcher";
import { nextTailDelay } from "./use-tail";

describe("the log tail's next read", () => {
  it("comes an interval after the last one ended, and never while paused", () => {
    expect(nextTailDelay(2000, 0, null)).toBe(2000);
    expect(nextTailDelay(0, 0, null)).toBeNull();
  });

  it("waits twice as long after each error in a row, up to a minute", () => {
    const down = new ApiClientError(503, "unavailable", "journal busy");
    expect([1, 2, 3, 10].map((n) => nextTailDelay(2000, n, down))).toEqual([4000, 8000, 16_000, 60_000]);
    expect(nextTailDelay(2000, 1, new TypeError("Failed to fetch"))).toBe(4000);
  });

  it("stops for a log that is gone or was swapped for a link", () => {
    expect(nextTailDelay(2000, 1, new ApiClientError(404, "not_found", "no such log"))).toBeNull();
    expect(nextTailDelay(2000, 1, new ApiClientError(409, "not_a_file", "a link"))).toBeNull();
  });
});
