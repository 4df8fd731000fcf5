import { describe, expect, it } from "vitest";
import { parseQuery, QueryError } from "./parse";
import { VOCABULARY as WORDS } from "@/lib/protocols";

const NOW = Date.parse("2026-11-20T01:00:00Z");

describe("parseQuery", () => {
  it("reads an empty query as no terms", () => {
    expect(parseQuery("   ", WORDS, NOW)).toEqual([]);
  });

  it("reads every text field, with and without negation", () => {
    const fields = ["from", "to", "agent", "type", "priority", "thread", "repo", "issue", "mid", "path", "source"] as const;
    for (const field of fields) {
      expect(parseQuery(`${field}:abc`, WORDS, NOW)).toEqual([{ kind: "field", field, value: "abc", negate: false }]);
      expect(parseQuery(`-${field}:abc`, WORDS, NOW)).toEqual([{ kind: "field", field, value: "abc", negate: true }]);
    }
    expect(parseQuery("status:dead folder:processed", WORDS, NOW)).toEqual([
      { kind: "field", field: "status", value: "dead", negate: false },
      { kind: "field", field: "folder", value: "processed", negate: false },
    ]);
  });

  it("takes the status and folder words of every protocol, not only IGNITE's", () => {
    expect(parseQuery("status:unacked folder:tasks -status:in_progress", WORDS, NOW)).toEqual([
      { kind: "field", field: "status", value: "unacked", negate: false },
      { kind: "field", field: "folder", value: "tasks", negate: false },
      { kind: "field", field: "status", value: "in_progress", negate: true },
    ]);
    expect(() => parseQuery("status:acked", WORDS, NOW)).toThrow(/unknown status "acked": expected one of queued, retrying, .*unanswered/);
  });

  it("reads the words of a fixed list in any case, and keeps other values as typed", () => {
    expect(parseQuery("Retries>2", WORDS, NOW)).toEqual([{ kind: "retries", op: ">", n: 2, negate: false }]);
    expect(parseQuery("Status:DEAD folder:Processed is:Stuck has:PROBLEM from:Leader", WORDS, NOW)).toEqual([
      { kind: "field", field: "status", value: "dead", negate: false },
      { kind: "field", field: "folder", value: "processed", negate: false },
      { kind: "is", value: "stuck", negate: false },
      { kind: "has", value: "problem", negate: false },
      { kind: "field", field: "from", value: "Leader", negate: false },
    ]);
  });

  it("reads quoted values and phrases", () => {
    expect(parseQuery('from:"a b" "two words" -"not this"', WORDS, NOW)).toEqual([
      { kind: "field", field: "from", value: "a b", negate: false },
      { kind: "text", value: "two words", negate: false },
      { kind: "text", value: "not this", negate: true },
    ]);
    expect(parseQuery('"http://example.com/a"', WORDS, NOW)).toEqual([{ kind: "text", value: "http://example.com/a", negate: false }]);
  });

  it("reads bare words, including Japanese, as full text", () => {
    expect(parseQuery("README骨組み -draft", WORDS, NOW)).toEqual([
      { kind: "text", value: "README骨組み", negate: false },
      { kind: "text", value: "draft", negate: true },
    ]);
  });

  it("says OR between terms is not part of the search, and still finds the word quoted or alone", () => {
    expect(() => parseQuery("from:karo OR to:karo", WORDS, NOW)).toThrow(
      new QueryError(10, 'OR is not part of the search: every term must match. Search for each side on its own, or put "OR" in quotes to find the word'),
    );
    expect(parseQuery('from:karo "OR"', WORDS, NOW)).toContainEqual({ kind: "text", value: "OR", negate: false });
    expect(parseQuery("OR", WORDS, NOW)).toEqual([{ kind: "text", value: "OR", negate: false }]);
    expect(parseQuery("this or that", WORDS, NOW)).toHaveLength(3);
    // Not between two terms: the word (a leading or trailing OR, a negated one).
    expect(parseQuery("OR from:karo", WORDS, NOW)).toContainEqual({ kind: "text", value: "OR", negate: false });
    expect(parseQuery("a -OR b", WORDS, NOW)).toContainEqual({ kind: "text", value: "OR", negate: true });
  });

  it("reads absolute and relative dates", () => {
    expect(parseQuery("after:2026-11-20", WORDS, NOW)).toEqual([{ kind: "date", field: "after", ms: Date.parse("2026-11-20T00:00:00Z"), relative: false, negate: false }]);
    expect(parseQuery("before:2026-11-20T09:30:00+09:00", WORDS, NOW)).toEqual([
      { kind: "date", field: "before", ms: Date.parse("2026-11-20T00:30:00Z"), relative: false, negate: false },
    ]);
    expect(parseQuery("after:-1h", WORDS, NOW)).toEqual([{ kind: "date", field: "after", ms: NOW - 3600_000, relative: true, negate: false }]);
    expect(parseQuery("after:-2d", WORDS, NOW)[0]).toMatchObject({ ms: NOW - 2 * 86400_000 });
  });

  it("reads a time without a zone as UTC, whatever the zone of the machine parsing it", () => {
    const zone = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    try {
      expect(parseQuery("before:2026-11-20T09:30:00 after:2026-11-20T09:30", WORDS, NOW).map((t) => t.kind === "date" && t.ms)).toEqual([
        Date.parse("2026-11-20T09:30:00Z"),
        Date.parse("2026-11-20T09:30:00Z"),
      ]);
      expect(parseQuery("after:2026-11-20T09:30:00+0900", WORDS, NOW)[0]).toMatchObject({ ms: Date.parse("2026-11-20T00:30:00Z") });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("reads retry comparisons", () => {
    expect(parseQuery("retries>2 retries>=1 retries<3 retries<=4 retries:0 retries=5", WORDS, NOW).map((t) => t.kind === "retries" && [t.op, t.n])).toEqual([
      [">", 2], [">=", 1], ["<", 3], ["<=", 4], ["=", 0], ["=", 5],
    ]);
  });

  it("reads tabs and line breaks as spaces, and a search of 2000 characters or 100 terms", () => {
    expect(parseQuery("a\tb\r\nc", WORDS, NOW).map((t) => t.kind === "text" && t.value)).toEqual(["a", "b", "c"]);
    expect(parseQuery("x".repeat(2000), WORDS, NOW)).toHaveLength(1);
    expect(parseQuery(Array.from({ length: 100 }, () => "a").join(" "), WORDS, NOW)).toHaveLength(100);
  });

  it("reads is: and has:", () => {
    expect(parseQuery("is:stuck -has:problem", WORDS, NOW)).toEqual([
      { kind: "is", value: "stuck", negate: false },
      { kind: "has", value: "problem", negate: true },
    ]);
  });

  it("reads protocol: as a protocol id, in any case, with its aliases, negated or not", () => {
    expect(parseQuery("protocol:shogun -protocol:KickLang protocol:Ignite-YAML", WORDS, NOW)).toEqual([
      { kind: "field", field: "protocol", value: "shogun", negate: false },
      { kind: "field", field: "protocol", value: "kicklang", negate: true },
      { kind: "field", field: "protocol", value: "ignite-yaml", negate: false },
    ]);
    const aliases = ["v3", "V2", "ignite-v2"].map((a) => parseQuery(`protocol:${a}`, WORDS, NOW)[0]);
    expect(aliases.map((t) => (t?.kind === "field" ? t.value : null))).toEqual(["ignite", "ignite-yaml", "ignite-yaml"]);
    expect(parseQuery('-protocol:"workflow"', WORDS, NOW)).toEqual([{ kind: "field", field: "protocol", value: "workflow", negate: true }]);
  });

  it("keeps a source: value as typed, wildcard included", () => {
    expect(parseQuery("source:app-* -source:Docs-ignite", WORDS, NOW)).toEqual([
      { kind: "field", field: "source", value: "app-*", negate: false },
      { kind: "field", field: "source", value: "Docs-ignite", negate: true },
    ]);
  });

  const errors: [string, RegExp][] = [
    ["colour:red", /unknown field "colour:".*from: to: agent:.*\(at position 1\)/],
    ["http://example.com/a", /unknown field "http:".*or put the word in quotes to search for it as text \("http:…"\) \(at position 1\)/],
    ["type:x  subject:hi", /unknown field "subject:".*\(at position 9\)/],
    ["from:", /"from:" needs a value \(at position 6\)/],
    ['from:"open', /unclosed quote.*\(at position 6\)/],
    ["status:lost", /unknown status "lost": expected one of queued, retrying/],
    ["folder:inbox2", /unknown folder "inbox2"/],
    [
      "type:x -protocol:v4",
      /unknown protocol "v4": expected one of ignite, ignite-yaml, shogun, workflow, kicklang \(or v3 for ignite, v2 for ignite-yaml, ignite-v2 for ignite-yaml\) \(at position 18\)/,
    ],
    ["protocol:ign*", /unknown protocol "ign\*"/],
    ["protocol:constructor", /unknown protocol "constructor"/],
    ["source:", /"source:" needs a value/],
    ["is:happy", /unknown is: value "happy": expected one of stuck/],
    ["has:wings", /unknown has: value "wings"/],
    ["after:yesterday", /"yesterday" is not a date/],
    ["before:2026-13-45", /"2026-13-45" is not a date/],
    ["before:2026-02-30", /"2026-02-30" is not a date/],
    ["after:2026-02-29T10:00", /"2026-02-29T10:00" is not a date/],
    ["retries:many", /write retries as retries>N/],
    ["retries>x", /"retries>x" needs a whole number after >: write retries>N.*\(at position 9\)/],
    ["retries>", /"retries>" needs a whole number after >.*\(at position 9\)/],
    ["type:x -retries>=-1", /"retries>=-1" needs a whole number after >=.*\(at position 18\)/],
    ["abc\u0000def", /a control character \(U\+0000\) cannot be searched for.*\(at position 4\)/],
    ["type:x \u001b[31m", /control character \(U\+001B\).*\(at position 8\)/],
    ["x".repeat(2001), /the search is 2001 characters long: at most 2000 \(at position 2001\)/],
    [Array.from({ length: 101 }, (_, i) => `w${i}`).join(" "), /too many terms: a search has at most 100 \(at position 391\)/],
  ];
  it.each(errors)("rejects %s with position and expectation", (q, message) => {
    expect(() => parseQuery(q, WORDS, NOW)).toThrow(QueryError);
    expect(() => parseQuery(q, WORDS, NOW)).toThrow(message);
  });
});
