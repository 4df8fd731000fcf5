import { describe, expect, it } from "vitest";
import { parseYamlBounded } from "./bounded-yaml";
import { pyyamlReadsAsOtherThanString } from "./pyyaml-schema";

// What PyYAML 6's safe_load made of `a: <text>` (run by hand; timestamps, which it makes datetimes, stay text here,
// and infinities come out as text, since no NaN or Infinity reaches the API: limits.ts toPlainBounded).
const PYYAML: [string, unknown][] = [
  ["1e3", "1e3"], ["1.5e3", "1.5e3"], ["1.5e+3", 1500], ["0o17", "0o17"], ["017", 15], ["0b101", 5], ["0x1F", 31], ["1_000", 1000],
  ["1:20", 80], ["-1:20", -80], ["1:20.5", 80.5], [".5", 0.5], [".inf", "Infinity"], ["-.inf", "-Infinity"],
  ["yes", true], ["On", true], ["OFF", false], ["no", false], ["y", "y"], ["n", "n"], ["True", true],
  ["~", null], ["null", null], ["Null", null], ["", null], ["hello", "hello"], ["2026-02-06T10:52:31", "2026-02-06T10:52:31"], ["12ab", "12ab"],
];

describe("the PyYAML schema", () => {
  it.each(PYYAML)("reads a: %s as PyYAML does", (text, value) => {
    const r = parseYamlBounded(`a: ${text}`, { schema: "pyyaml" });
    expect(r.ok && (r.data as { a: unknown }).a).toEqual(value);
  });

  it("reads .nan as not a number (text in the API), and keeps every other plain text a string", () => {
    const r = parseYamlBounded("a: .nan\nb: it's plain\nc: '1e3'", { schema: "pyyaml" });
    expect(r.ok && r.data).toEqual({ a: "NaN", b: "it's plain", c: "1e3" });
  });

  it("merges `<<` keys, as PyYAML's SafeLoader does", () => {
    const r = parseYamlBounded("b: &b {x: 1}\nc: {<<: *b, y: 2}", { schema: "pyyaml" });
    expect(r.ok && r.data).toEqual({ b: { x: 1 }, c: { x: 1, y: 2 } });
  });

  it("says which texts PyYAML would not read back as themselves if written plain", () => {
    for (const text of ["yes", "~", "017", "1:20", "1.5", "=", "<<"]) expect(pyyamlReadsAsOtherThanString(text), text).toBe(true);
    for (const text of ["1e3", "0o17", "y", "hello", "1.5e3"]) expect(pyyamlReadsAsOtherThanString(text), text).toBe(false);
  });

  it("keeps the bounds: an alias bomb is refused, not expanded", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`)].join("\n");
    const r = parseYamlBounded(bomb, { schema: "pyyaml" });
    expect(r.ok).toBe(false);
  });
});
