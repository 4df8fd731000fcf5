import { describe, expect, it } from "vitest";
import { canonicalIso, isoOf, isoOfMs } from "./iso-time";

/** A seeded generator, so a failure names a value that fails again. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}

describe("isoOfMs", () => {
  it("writes what toISOString writes, across every four-digit year and past them", () => {
    const random = seeded(24);
    const spans = [8.64e15, 253_402_300_800_000, 4_102_444_800_000, 86_400_000 * 3];
    const differing: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const span = spans[i % spans.length] ?? 1;
      const ms = Math.round((random() * 2 - 1) * span);
      if (isoOfMs(ms) !== new Date(ms).toISOString()) differing.push(`${ms}: ${isoOfMs(ms)}`);
    }
    expect(differing).toEqual([]);
  });

  it("is exact at the edges: leap days, centuries, year 0 and 9999, the first ms of 1970 and the last before it", () => {
    const edges = [0, -1, 1, 951_782_400_000, 4_107_542_400_000, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15];
    for (const iso of ["2000-02-29T23:59:59.999Z", "2100-03-01T00:00:00.000Z", "1900-02-28T12:00:00.000Z", "2024-12-31T23:59:59.999Z", "0000-01-01T00:00:00.000Z"]) edges.push(Date.parse(iso));
    for (const ms of edges) expect(isoOfMs(ms), String(ms)).toBe(new Date(ms).toISOString());
    expect(isoOfMs(1.9)).toBe(new Date(1.9).toISOString());
    expect(isoOfMs(-1.9)).toBe(new Date(-1.9).toISOString());
  });

  it("isoOf throws as toISOString does past JavaScript's dates, where isoOfMs gives null", () => {
    for (const ms of [8.64e15 + 1, NaN, Infinity]) {
      expect(() => new Date(ms).toISOString()).toThrow(RangeError);
      expect(() => isoOf(ms)).toThrow(RangeError);
      expect(isoOfMs(ms)).toBeNull();
    }
  });
});

describe("canonicalIso", () => {
  it("takes a real time in isoOfMs's own form as it is", () => {
    for (const v of ["2026-02-05T03:45:40.000Z", "2024-02-29T23:59:59.999Z", "0000-01-01T00:00:00.000Z", "2000-02-29T00:00:00.000Z"]) expect(canonicalIso(v)).toBe(v);
  });

  it("leaves every other form, and a time that is not real, to the full reading", () => {
    for (const v of ["2026-02-31T00:00:00.000Z", "2023-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2026-02-05T24:00:00.000Z", "2026-13-01T00:00:00.000Z",
      "2026-00-01T00:00:00.000Z", "2026-01-00T00:00:00.000Z", "2026-02-05T10:60:00.000Z", "2026-02-05T10:00:60.000Z", "2026-02-05T03:45:40Z",
      "2026-02-05T03:45:40.000+00:00", " 2026-02-05T03:45:40.000Z", "2026-02-05t03:45:40.000z", "+275760-09-13T00:00:00.000Z"]) {
      expect(canonicalIso(v), v).toBeNull();
    }
  });
});
