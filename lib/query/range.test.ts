import { describe, expect, it } from "vitest";
import { parseQuery } from "./parse";
import { VOCABULARY as WORDS } from "@/lib/protocols";
import { ALL_TIME, parseRange, rangeLabel, rangeOrAll, rangeQuery, rangeSearchParams, rangeWindow, TimeRangeError } from "./range";

const NOW = Date.parse("2026-11-26T12:00:00Z");

describe("parseRange", () => {
  it("reads the presets, all time, and a custom window (a time without a zone is UTC)", () => {
    expect(parseRange({})).toEqual(ALL_TIME);
    expect(parseRange({ range: "all" })).toEqual(ALL_TIME);
    expect(parseRange({ range: "1h" })).toEqual({ kind: "preset", preset: "1h" });
    expect(parseRange({ range: ["7d", "1h"] })).toEqual({ kind: "preset", preset: "7d" });
    expect(parseRange({ from: "2026-11-26T09:00", to: "2026-11-26T11:00:00+01:00" })).toEqual({
      kind: "custom", from: Date.parse("2026-11-26T09:00:00Z"), to: Date.parse("2026-11-26T10:00:00Z"),
    });
    expect(parseRange({ range: "custom", from: "2026-11-25", to: "2026-11-26" })).toEqual({ kind: "custom", from: Date.parse("2026-11-25T00:00:00Z"), to: NOW - 12 * 3_600_000 });
  });

  it("says what is wrong", () => {
    expect(() => parseRange({ range: "2h" })).toThrow(new TimeRangeError('unknown range "2h": expected one of 15m, 1h, 24h, 7d, all, or from and to'));
    expect(() => parseRange({ from: "2026-11-25" })).toThrow("a custom range needs both from and to");
    expect(() => parseRange({ from: "2026-11-26", to: "2026-11-25" })).toThrow("from must be before to");
    expect(() => parseRange({ from: "soon", to: "2026-11-25" })).toThrow('from "soon" is not a time');
    expect(() => parseRange({ range: "1h", from: "2026-11-25", to: "2026-11-26" })).toThrow("either range or from/to");
    expect(rangeOrAll({ range: "2h" })).toEqual(ALL_TIME);
  });
});

describe("a range's uses", () => {
  it("is a window ending now, or the fixed one", () => {
    expect(rangeWindow({ kind: "preset", preset: "15m" }, NOW)).toEqual({ from: NOW - 15 * 60_000, to: NOW });
    expect(rangeWindow({ kind: "custom", from: 1, to: 2 }, NOW)).toEqual({ from: 1, to: 2 });
    expect(rangeWindow(ALL_TIME, NOW)).toBeNull();
  });

  it("is search terms the query language reads back to the same window", () => {
    expect(rangeQuery(ALL_TIME)).toBe("");
    for (const preset of ["15m", "1h", "24h", "7d"] as const) {
      const [term] = parseQuery(rangeQuery({ kind: "preset", preset }), WORDS, NOW);
      expect(term).toMatchObject({ kind: "date", field: "after", relative: true });
    }
    const terms = parseQuery(rangeQuery({ kind: "custom", from: NOW - 1000, to: NOW }), WORDS);
    expect(terms).toMatchObject([{ field: "after", ms: NOW - 1000 }, { field: "before", ms: NOW }]);
  });

  it("is URL parameters and a label", () => {
    expect(rangeSearchParams({ kind: "preset", preset: "24h" })).toEqual({ range: "24h" });
    expect(rangeSearchParams({ kind: "custom", from: NOW - 3_600_000, to: NOW })).toEqual({ from: "2026-11-26T11:00:00.000Z", to: "2026-11-26T12:00:00.000Z" });
    expect(parseRange(rangeSearchParams({ kind: "custom", from: NOW - 3_600_000, to: NOW }))).toEqual({ kind: "custom", from: NOW - 3_600_000, to: NOW });
    expect(rangeLabel({ kind: "preset", preset: "1h" })).toBe("Last 1 h");
    expect(rangeLabel({ kind: "custom", from: NOW - 3_600_000, to: NOW })).toBe("2026-11-26 11:00 – 2026-11-26 12:00 UTC");
  });
});
