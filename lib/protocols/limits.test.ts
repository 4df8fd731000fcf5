// The shared parse limits every adapter inherits: YAML and JSON from untrusted text, and header
// lines. Each hostile shape stops at its limit with a problem naming it; ordinary input parses as before.
import { describe, expect, it } from "vitest";
import { mergeKeyBomb, nestedAliasBomb, scalarAliasBomb, wideAliasBomb } from "@/lib/testing/hostile-files";
import { parseJsonBounded } from "./bounded-json";
import { parseYamlBounded, parseYamlFile } from "./bounded-yaml";
import { boundedLines, PARSE_LIMITS, toPlainBounded, type BoundedParse } from "./limits";

const problemOf = (r: BoundedParse) => (r.ok ? null : r.limit ? r.problem : `syntax: ${r.reason}`);

describe("YAML within limits", () => {
  it.each([
    ["nested aliases (a billion laughs)", nestedAliasBomb(), "YAML body: more than 100 aliases expanded (limit)."],
    ["one list aliased 10,000 times", wideAliasBomb(), "YAML body: more than 100 aliases expanded (limit)."],
    ["one big string aliased 99 times", scalarAliasBomb(), "YAML body: aliases expand to more than 1,024 KiB of text (limit)."],
    ["5,000 `<<` merges of a 1,000-key map", mergeKeyBomb(), "YAML body: more than 10,000 keys copied by `<<` merges (limit)."],
    ["200,000 nested brackets", `${"[".repeat(200_000)}${"]".repeat(200_000)}`, "YAML body: nested more than 64 deep (limit)."],
    ["500 nested block maps", Array.from({ length: 500 }, (_, i) => `${" ".repeat(i)}a:`).join("\n"), "YAML body: nested more than 64 deep (limit)."],
    ["a million-item list", "- a\n".repeat(1_000_000), "YAML body: more than 100,000 values (limit)."],
  ])("stops %s at its limit", (_name, text, problem) => {
    expect(problemOf(parseYamlBounded(text))).toBe(problem);
  });

  it("counts aliases inside an expanded alias: 81 alias nodes that would expand 9^8 times", () => {
    // Nine levels of nine: fewer alias nodes than the limit, but far more expansions.
    expect(nestedAliasBomb().match(/\*/g)?.length).toBeLessThan(PARSE_LIMITS.aliases);
    expect(problemOf(parseYamlBounded(nestedAliasBomb()))).toMatch(/aliases expanded/);
  });

  it("reads ordinary aliases, merges and dates as before", () => {
    const text = "base: &b {retries: 3}\njob:\n  <<: *b\n  name: x\nagain: *b\nwhen: 2026-11-20\n";
    expect(parseYamlBounded(text)).toEqual({
      ok: true, data: { base: { retries: 3 }, job: { retries: 3, name: "x" }, again: { retries: 3 }, when: "2026-11-20T00:00:00.000Z" },
    });
    // YAML 1.2's core schema, as `yaml` reads it: dates stay text, `<<` is a key.
    expect(parseYamlBounded("when: 2026-11-20\n<<: {a: 1}\n", { schema: "core" })).toEqual({ ok: true, data: { when: "2026-11-20", "<<": { a: 1 } } });
  });

  it("says where a syntax error is, at the end of the last line for an unclosed flow", () => {
    expect(parseYamlBounded("a: [")).toMatchObject({ ok: false, limit: false, line: 1, column: 5 });
    expect(parseYamlBounded("a: 1\n b: 2\n")).toMatchObject({ ok: false, limit: false, line: 2 });
  });

  it("names the text as the caller asks and takes tighter limits", () => {
    expect(problemOf(parseYamlBounded("[[[1]]]", { what: "Front matter", limits: { depth: 2 } }))).toBe("Front matter: nested more than 2 deep (limit).");
  });
});

describe("a whole wave-2 file (IGNITE v2, shogun) within limits", () => {
  it("reads YAML 1.2's core schema, a later duplicate key winning, as upstream's writers expect", () => {
    expect(parseYamlFile("status: retrying\nstatus: processing\nn: 1\nat: 2026-02-06T10:52:31\n")).toMatchObject({
      data: { status: "processing", n: 1, at: "2026-02-06T10:52:31" }, problem: null,
    });
    // A few aliases are ordinary YAML.
    expect(parseYamlFile("a: &x 1\nb: *x\n").data).toEqual({ a: 1, b: 1 });
  });

  it("names the text in its problems: a limit, a size cap checked before parsing, and where YAML does not parse", () => {
    const block = Array.from({ length: 100 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n");
    expect(parseYamlFile(block, "The original_message").problem).toEqual({ code: "limit", message: "The original_message: nested more than 64 deep (limit)." });
    expect(parseYamlFile(`a: "${"x".repeat(PARSE_LIMITS.documentBytes)}"`).problem).toEqual({ code: "limit", message: "The file: longer than 1,024 KiB, not parsed (limit)." });
    expect(parseYamlFile("a: [1\nb: 2\n").problem).toMatchObject({ code: "parse", message: expect.stringMatching(/^The file is not valid YAML \(line \d+, column \d+\): .+\.$/) });
  });

  it("gives the character ranges of each top-level list's items, each with its line break; none for an aliased list", () => {
    const text = "note: x\nmessages:\n- id: a\n  body: hi\n- id: b\n  n: [1, 2]\nold: &o [1]\nagain: *o\nz: 1\n";
    const ranges = parseYamlFile(text, "The file", { itemRanges: true }).items;
    expect([...ranges.keys()]).toEqual(["messages", "old"]);
    expect(ranges.get("messages")?.map(([start, end]) => text.slice(start, end))).toEqual(["id: a\n  body: hi\n", "id: b\n  n: [1, 2]\n"]);
    expect(parseYamlFile(text).items.size).toBe(0);
  });
});

describe("JSON within limits", () => {
  it("stops deep nesting before JSON.parse, counting brackets outside strings only", () => {
    expect(problemOf(parseJsonBounded(`${"[".repeat(200_000)}${"]".repeat(200_000)}`))).toBe("JSON body: nested more than 64 deep (limit).");
    expect(parseJsonBounded(JSON.stringify({ s: "[[[[".repeat(1000), q: 'a\\"[' }))).toMatchObject({ ok: true });
  });

  it("stops a document of too many values", () => {
    expect(problemOf(parseJsonBounded(`[${"0,".repeat(200_000)}0]`))).toBe("JSON body: more than 100,000 values (limit).");
  });

  it("parses ordinary JSON and places a syntax error", () => {
    expect(parseJsonBounded('{"a": [1, {"b": null}]}')).toEqual({ ok: true, data: { a: [1, { b: null }] } });
    const bad = parseJsonBounded('{\n"a": 1,,}');
    expect(bad).toMatchObject({ ok: false, limit: false });
    // Node 20 names no place for every error; when it does, it is the second line.
    if (!bad.ok && !bad.limit && bad.line !== null) expect(bad.line).toBe(2);
  });
});

describe("plain values within a budget", () => {
  it("expands a shared object (and each object in it) once per budgeted alias, and counts every value", () => {
    const shared = { a: [1, 2] };
    const budget = { what: "Body", aliases: 2, aliasChars: 10, values: 100 };
    expect(toPlainBounded([shared, shared], budget)).toEqual([{ a: [1, 2] }, { a: [1, 2] }]);
    expect(() => toPlainBounded([shared, shared, shared], budget)).toThrow("Body: more than 2 aliases expanded (limit).");
    expect(() => toPlainBounded(Array(101).fill(0), budget)).toThrow("Body: more than 100 values (limit).");
    // Plain JSON values only: no Map, Date, bigint or NaN reaches the API.
    const odd = new Map<unknown, unknown>([[1, new Date("2026-01-01T00:00:00Z")], ["n", NaN], ["b", 10n]]);
    expect(toPlainBounded(odd, budget)).toEqual({ 1: "2026-01-01T00:00:00.000Z", n: "NaN", b: "10" });
  });
});

describe("header lines within limits", () => {
  it("stops at the line count and at a long line, keeping the lines before", () => {
    const many = boundedLines(Array.from({ length: 5000 }, (_, i) => `X-${i}: v`).join("\n"), /\n/, "Headers");
    expect(many.lines).toHaveLength(PARSE_LIMITS.headerLines);
    expect(many.problem).toBe("Headers: more than 1,000 header lines (limit).");
    const long = boundedLines(`From: a\r\nSubject: ${"s".repeat(7 * 1024 * 1024)}\r\nTo: b`, /\r\n|\n/, "Headers");
    expect(long).toEqual({ lines: ["From: a"], problem: "Headers: a header line longer than 16 KiB (limit)." });
    expect(boundedLines("a\nb", /\n/, "Headers")).toEqual({ lines: ["a", "b"], problem: null });
  });

  it("splits at every break the pattern names, CRLF as one, with the empty lines around them", () => {
    const pyBreaks = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
    expect(boundedLines("a\r\nb\rc\nd\u2028e\x85f\n", pyBreaks, "Headers").lines).toEqual(["a", "b", "c", "d", "e", "f", ""]);
    expect(boundedLines("\n\r\n", pyBreaks, "Headers").lines).toEqual(["", "", ""]);
    expect(boundedLines("", pyBreaks, "Headers")).toEqual({ lines: [""], problem: null });
  });

  it("takes exactly the limits, and says the first limit a line passes", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `X-${i}: v`);
    expect(boundedLines(lines(PARSE_LIMITS.headerLines).join("\n"), /\n/, "Headers").problem).toBeNull();
    expect(boundedLines(`a: ${"s".repeat(PARSE_LIMITS.headerLineChars - 3)}`, /\n/, "Headers").problem).toBeNull();
    // The line past the count is also too long: its length is said, as a line-by-line read found it first.
    const both = boundedLines([...lines(PARSE_LIMITS.headerLines), "s".repeat(PARSE_LIMITS.headerLineChars + 1)].join("\n"), /\n/, "Headers");
    expect(both.lines).toHaveLength(PARSE_LIMITS.headerLines);
    expect(both.problem).toBe("Headers: a header line longer than 16 KiB (limit).");
  });
});
