import { describe, expect, it } from "vitest";
import { byteOffsets, flowDepth, LIMITS, parseYamlBounded, str, toPlain } from "./bounded";

function aliasBomb(levels: number): string {
  const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
  return `${lines.join("\n")}\n`;
}

describe("parseYamlBounded", () => {
  it("parses a mapping; a later duplicate key wins, as upstream's writers expect", () => {
    expect(parseYamlBounded("status: retrying\nstatus: processing\nn: 1\n")).toMatchObject({ data: { status: "processing", n: 1 }, problem: null });
  });

  it("refuses an alias bomb as a limit, not an hour of expansion", () => {
    const r = parseYamlBounded(aliasBomb(9));
    expect(r.data).toBeNull();
    expect(r.problem).toMatchObject({ code: "limit", message: expect.stringMatching(/^The file could not be expanded: /) });
    // A few aliases are ordinary YAML.
    expect(parseYamlBounded("a: &x 1\nb: *x\n").data).toEqual({ a: 1, b: 1 });
  });

  it("refuses deep flow nesting before parsing it, and deep block nesting after", () => {
    expect(flowDepth(`a: ${"[".repeat(65)}${"]".repeat(65)}`)).toBe(65);
    expect(flowDepth('a: ["[[[[", \'{{\']')).toBe(1); // brackets in quotes do not count
    expect(parseYamlBounded(`a: ${"[".repeat(200_000)}`).problem).toMatchObject({ code: "limit", message: expect.stringContaining("deeper than 64") });
    const block = Array.from({ length: 100 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n");
    expect(parseYamlBounded(block, "The original_message").problem).toEqual({ code: "limit", message: "The original_message nests deeper than 64 levels; its YAML was not parsed." });
  });

  it("refuses text over the size cap without parsing it", () => {
    const r = parseYamlBounded(`a: "${"x".repeat(LIMITS.maxYamlBytes)}"`);
    expect(r.problem).toMatchObject({ code: "limit", message: expect.stringContaining(`larger than ${LIMITS.maxYamlBytes} bytes`) });
  });

  it("says where YAML does not parse", () => {
    expect(parseYamlBounded("a: [1\nb: 2\n").problem).toMatchObject({ code: "parse", message: expect.stringMatching(/^The file is not valid YAML \(line \d+, column \d+\): .+\.$/) });
  });
});

describe("toPlain, str and byteOffsets", () => {
  it("keeps plain JSON values only", () => {
    expect(toPlain(new Map<unknown, unknown>([[1, new Date("2026-01-01T00:00:00Z")], ["n", NaN], ["b", 10n]]), 0)).toEqual({ 1: "2026-01-01T00:00:00.000Z", n: "NaN", b: "10" });
    let deep: unknown = "leaf";
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(JSON.stringify(toPlain(deep, 0))).toBe(`${"[".repeat(64)}null${"]".repeat(64)}`);
  });

  it("makes single-line fields", () => {
    expect(str("a\r\nb\0c")).toBe("a b c");
    expect(str(3)).toBe("3");
    expect(str(null)).toBeNull();
    expect(str(["x"])).toBeNull();
  });

  it("turns string indexes into UTF-8 byte offsets", () => {
    const text = "a進捗b🙂c";
    expect(byteOffsets(text, [0, 1, 3, 4, 6])).toEqual([0, 1, 7, 8, 12]);
  });
});
