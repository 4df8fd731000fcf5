import { describe, expect, it } from "vitest";
import { effectiveInterval, readSettings } from "./live";

describe("live settings", () => {
  it("reads what was stored, and the defaults from anything else", () => {
    expect(readSettings(JSON.stringify({ paused: true, intervalMs: 5000 }))).toEqual({ paused: true, intervalMs: 5000 });
    expect(readSettings(JSON.stringify({ paused: "yes", intervalMs: 7 }))).toEqual({ paused: false, intervalMs: null });
    expect(readSettings("{not json")).toEqual({ paused: false, intervalMs: null });
    expect(readSettings(null)).toEqual({ paused: false, intervalMs: null });
  });

  it("stops every poll while paused, and scales each poll by the chosen interval", () => {
    expect(effectiveInterval(2000, 2000, { paused: true, intervalMs: null })).toBe(0);
    expect(effectiveInterval(2000, 2000, { paused: false, intervalMs: null })).toBe(2000);
    expect(effectiveInterval(2000, 2000, { paused: false, intervalMs: 10_000 })).toBe(10_000);
    // A poll five times slower than the server's stays five times slower.
    expect(effectiveInterval(10_000, 2000, { paused: false, intervalMs: 1000 })).toBe(5000);
    // A poll that never repeats stays so.
    expect(effectiveInterval(0, 2000, { paused: false, intervalMs: 1000 })).toBe(0);
  });
});
