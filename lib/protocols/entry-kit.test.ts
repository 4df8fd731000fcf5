import { describe, expect, it } from "vitest";
import { addMs, decodeUtf8, isDebris, isoToUtc, makeEntry, str } from "./entry-kit";
import { isoOfMs } from "./iso-time";
import type { EntryProblem } from "./entries";

describe("isoToUtc", () => {
  it("reads offsets, Z and fractions; a time without an offset at the given local offset", () => {
    expect(isoToUtc("2026-02-05T12:45:40+09:00")).toBe("2026-02-05T03:45:40.000Z");
    expect(isoToUtc("2026-01-25T14:30:00.512345Z")).toBe("2026-01-25T14:30:00.512Z");
    expect(isoToUtc("2026-02-06T10:52:31", 540)).toBe("2026-02-06T01:52:31.000Z");
    expect(isoToUtc("2026-02-06T10:52:31-0130", 540)).toBe("2026-02-06T12:22:31.000Z");
  });

  it("refuses what is not a real time instead of rolling it over", () => {
    for (const v of ["$(date -Iseconds)", "2026-02-31T00:00:00Z", "2026-02-05T25:00:00Z", "", "2026-02-05", 5, null, "2026-02-05T10:00:00+99:99", "2026-02-05T10:00:00+05:60"]) {
      expect(isoToUtc(v), String(v)).toBeNull();
    }
  });

  it("reads years below 100 as themselves, not as 1900-1999", () => {
    expect(isoToUtc("0050-01-01T00:00:00Z")).toBe("0050-01-01T00:00:00.000Z");
    expect(isoToUtc("0000-03-01T12:00:00+01:00")).toBe("0000-03-01T11:00:00.000Z");
  });

  it("adds milliseconds, keeping null", () => {
    expect(addMs("2026-01-25T14:34:55.310Z", 5000)).toBe("2026-01-25T14:35:00.310Z");
    expect(addMs(null, 5000)).toBeNull();
  });

  it("gives null past JavaScript's last date instead of throwing", () => {
    expect(addMs("+275760-09-13T00:00:00.000Z", 300_000)).toBeNull();
    expect(isoOfMs(8.64e15)).toBe("+275760-09-13T00:00:00.000Z");
    for (const ms of [8.64e15 + 1, -8.64e15 - 1, NaN, Infinity]) expect(isoOfMs(ms), String(ms)).toBeNull();
  });
});

describe("isDebris", () => {
  it("is a dotfile, a lock, a lock folder or a temp file anywhere in the path", () => {
    for (const p of [".x.yaml", "a/.x", "karo.yaml.lock", "karo.yaml.lock.d/x", "tmpAb12.tmp", "x.yaml.tmp-1"]) expect(isDebris(p.split("/")), p).toBe(true);
    for (const p of ["karo.yaml", "agents/a.ack", "report/%E9%80%B2.jsonl"]) expect(isDebris(p.split("/")), p).toBe(false);
  });
});

describe("makeEntry and decodeUtf8", () => {
  it("fills every optional field with its empty value", () => {
    expect(makeEntry({ kind: "log", locator: "", agent: "a", folder: "logs", status: "logged" })).toMatchObject({ to: [], links: [], problems: [], span: null, retryCount: 0, body: "" });
  });

  it("flags bytes that are not UTF-8", () => {
    const problems: EntryProblem[] = [];
    expect(decodeUtf8(Buffer.from([0x61, 0xe9]), problems)).toBe("a\uFFFD");
    expect(problems.map((p) => p.code)).toEqual(["encoding"]);
  });
});

describe("str", () => {
  it("makes single-line fields of strings, numbers and booleans only", () => {
    expect(str("a\r\nb\0c")).toBe("a b c");
    expect(str(3)).toBe("3");
    expect(str(null)).toBeNull();
    expect(str(["x"])).toBeNull();
  });
});
