import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeIgniteFile } from "./parse";
import { parseHeaderLines, parseReference, pyStrip, splitHeaderBlock } from "./reference";
import { EXPECTED_DIR, FIXTURE_ROOT } from "./test-fixture";

describe("parseReference equals ignite_mime.py parse", () => {
  it("matches every expected/*.json, values and key order", async () => {
    const names = fs.readdirSync(EXPECTED_DIR).filter((n) => n.endsWith(".json"));
    expect(names.length).toBeGreaterThanOrEqual(19);
    for (const name of names) {
      const rel = name.slice(0, -".json".length).split("__").join("/");
      const expected: unknown = JSON.parse(fs.readFileSync(path.join(EXPECTED_DIR, name), "utf8"));
      const { ignite } = await describeIgniteFile(fs.readFileSync(path.join(FIXTURE_ROOT, ".ignite", rel)));
      expect(ignite, rel).toEqual(expected);
      expect(Object.keys(ignite ?? {}), rel).toEqual(Object.keys(expected as object));
    }
  });
});

describe("reference semantics", () => {
  const KEYS = ["message_id", "from", "to", "cc", "date", "in_reply_to", "type", "priority", "thread_id",
    "repository", "issue", "status", "content_type", "body"];

  it("joins continuation lines with one space and lets a later duplicate win in place", () => {
    const text = "Message-ID: <a@x>\nX-IGNITE-Error-Reason: first\n\tsecond line\nFrom: a\nX-IGNITE-Foo-Bar: 1\n" +
      "From:  b  \nX-IGNITE-Error-Reason: again\n   more\n\nbody\n";
    const r = parseReference(text);
    expect(r.from).toBe("b");
    expect(r.error_reason).toBe("again more");
    expect(Object.keys(r)).toEqual([...KEYS, "error_reason", "foo_bar"]);
  });

  it("reads CRLF files as the CLI does (universal newlines)", () => {
    const r = parseReference("From: a\r\nTo: b, , c\r\nCc: d\r\n\r\nx: 1\r\ny: 2\r\n");
    expect(r).toMatchObject({ from: "a", to: ["b", "c"], cc: ["d"], body: "x: 1\ny: 2\n" });
  });

  it("is case-sensitive and keeps X-IGNITE-Status mapped, other X-IGNITE-* as snake_case", () => {
    const r = parseReference("from: lower\nX-Ignite-Type: t\nX-IGNITE-Status: queued\nX-IGNITE-Requeued-At: now\n\n");
    expect(r.from).toBe("");
    expect(r.type).toBe("");
    expect(r.status).toBe("queued");
    expect(r.requeued_at).toBe("now");
  });

  it("reads a file without an empty line as all headers, like the tool", () => {
    expect(parseReference("From: a\nTo: b").from).toBe("a");
    expect(parseReference("no headers here").priority).toBe("normal");
    expect(splitHeaderBlock("a: 1").separator).toBeNull();
  });

  it("splits at the first \\n\\n, then falls back to \\r\\n\\r\\n", () => {
    expect(splitHeaderBlock("A: 1\n\nB\n\nC")).toEqual({ headerPart: "A: 1", body: "B\n\nC", separator: "\n\n" });
    expect(splitHeaderBlock("A: 1\r\n\r\nB")).toEqual({ headerPart: "A: 1", body: "B", separator: "\r\n\r\n" });
  });

  it("strips like Python (keeps U+FEFF, strips U+001F)", () => {
    expect(pyStrip("\ufeffa\x1f ")).toBe("\ufeffa");
    // Only one end to strip, or only inner spaces: the fast path must not skip an end.
    expect(pyStrip("\u3000x y")).toBe("x y");
    expect(pyStrip("x y\x85")).toBe("x y");
    expect(pyStrip("x  y")).toBe("x  y");
    expect(pyStrip("\u2028")).toBe("");
    expect(pyStrip(" leader")).toBe("leader");
    expect(pyStrip(" \t a\x7fb \r\n")).toBe("a\x7fb");
    expect(parseHeaderLines(" orphan: continuation\nA: 1")).toEqual([["orphan", "continuation"], ["A", "1"]]);
  });

  it("strips exactly what Python's whitespace class does, from both ends, on any mix", () => {
    // str.isspace() characters, as Python 3 defines them.
    const space = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
    const reference = (s: string) => s.replace(new RegExp(`^[${space}]+|[${space}]+$`, "g"), "");
    const alphabet = [" ", "\t", "\r", "\x1c", "\x1f", "\x7f", "\x85", "\xa0", "\ufeff", "\u2000", "\u200a", "\u200b", "\u3000", "a", "あ", "\ud83d\ude00"];
    let seed = 7;
    // The high bits: an LCG's low ones repeat with a short period.
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 12;
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: next() % 8 }, () => alphabet[next() % alphabet.length]).join("");
      expect(pyStrip(s), JSON.stringify(s)).toBe(reference(s));
    }
  });

  it("keeps a __proto__ header as plain data", () => {
    const r = parseReference("X-IGNITE-__proto__: x\n\n");
    expect(Object.keys(r)).toContain("__proto__");
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
  });
});
