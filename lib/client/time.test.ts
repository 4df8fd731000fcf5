import { describe, expect, it } from "vitest";
import { formatDuration, formatRelative, formatUtc, formatUtcShort, parseTime } from "./time";

const now = Date.parse("2026-11-20T01:00:00Z");

describe("formatRelative", () => {
  it("says just now within five seconds either way", () => {
    expect(formatRelative(now - 4_000, now)).toBe("just now");
    expect(formatRelative(now + 3_000, now)).toBe("just now");
  });
  it("counts seconds, minutes, hours and days in the past", () => {
    expect(formatRelative(now - 42_000, now)).toBe("42 s ago");
    expect(formatRelative(now - 3 * 60_000 - 10_000, now)).toBe("3 min ago");
    expect(formatRelative(now - 2 * 3_600_000 - 5 * 60_000, now)).toBe("2 h ago");
    expect(formatRelative(now - 3 * 86_400_000, now)).toBe("3 d ago");
  });
  it("speaks of the future with 'in'", () => {
    expect(formatRelative(now + 90_000, now)).toBe("in 1 min");
  });
});

describe("formatDuration", () => {
  it("keeps two units past the hour", () => {
    expect(formatDuration(59_000)).toBe("59 s");
    expect(formatDuration(5 * 60_000)).toBe("5 min");
    expect(formatDuration(3_600_000)).toBe("1 h");
    expect(formatDuration(3_600_000 + 5 * 60_000)).toBe("1 h 5 min");
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe("2 d 3 h");
  });
});

describe("parseTime / formatUtc", () => {
  it("parses ISO strings and rejects junk", () => {
    expect(parseTime("2026-11-20T00:59:45Z")).toBe(Date.parse("2026-11-20T00:59:45Z"));
    expect(parseTime("not a date")).toBeNull();
    expect(parseTime(null)).toBeNull();
  });
  it("formats in UTC without milliseconds", () => {
    expect(formatUtc(Date.parse("2026-11-20T00:59:45.123Z"))).toBe("2026-11-20 00:59:45 UTC");
    expect(formatUtcShort(Date.parse("2026-11-20T00:59:45.123Z"))).toBe("11-20 00:59 UTC");
  });
});
