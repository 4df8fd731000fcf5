import { describe, expect, it } from "vitest";
import { keepInPlace, placeOf, type KeptRow } from "./rows-in-place";

const row = (key: string) => ({ key });
const keys = (rows: { key: string }[]) => rows.map((r) => r.key);
const kept = (rows: { key: string }[], key: string): [string, KeptRow<{ key: string }>] => [key, { item: row(key), ...placeOf(rows, key) }];

describe("keepInPlace", () => {
  const before = ["a", "b", "c", "d"].map(row);

  it("puts a row the live list dropped back where it was", () => {
    expect(keys(keepInPlace(["a", "c", "d"].map(row), new Map([kept(before, "b")])))).toEqual(["a", "b", "c", "d"]);
    expect(keys(keepInPlace(["b", "c", "d"].map(row), new Map([kept(before, "a")])))).toEqual(["a", "b", "c", "d"]);
  });

  it("keeps it below the same row when new rows arrive above", () => {
    expect(keys(keepInPlace(["new", "a", "c", "d"].map(row), new Map([kept(before, "b")])))).toEqual(["new", "a", "b", "c", "d"]);
  });

  it("keeps several, the row above gone too", () => {
    const map = new Map([kept(before, "b"), kept(before, "c")]);
    expect(keys(keepInPlace(["a", "d"].map(row), map))).toEqual(["a", "b", "c", "d"]);
  });

  it("shows the live row once it is back", () => {
    expect(keys(keepInPlace(before, new Map([kept(before, "b")])))).toEqual(["a", "b", "c", "d"]);
  });
});
