import { describe, expect, it } from "vitest";
import { readJsonStream, type StreamRead } from "./json-stream";

const enc = (s: string) => Buffer.from(s, "utf8");
const values = (r: StreamRead) => r.items.flatMap((i) => (i.ok ? [i.value] : []));
const faults = (r: StreamRead) => r.items.flatMap((i) => (i.ok ? [] : [i.problem]));

const PRETTY = '{\n  "id": "a",\n  "payload": {\n    "n": 1\n  }\n}\n';
const COMPACT = '{"id":"b","payload":{}}\n';

describe("readJsonStream", () => {
  it("reads compact lines and pretty-printed objects mixed, with blank lines between, each with its byte span", () => {
    const text = `${PRETTY}\n\n${COMPACT}\n${PRETTY.replace('"a"', '"c"')}`;
    const r = readJsonStream(enc(text));
    expect(values(r)).toEqual([{ id: "a", payload: { n: 1 } }, { id: "b", payload: {} }, { id: "c", payload: { n: 1 } }]);
    expect(faults(r)).toEqual([]);
    expect(r.consumed).toBe(enc(text).length);
    const second = r.items[1]!;
    expect(text.slice(second.start, second.end)).toBe(COMPACT.trimEnd());
  });

  it("leaves an incomplete last value unread, and reads it when the rest is appended (split mid-value)", () => {
    const all = enc(`${COMPACT}${PRETTY}`);
    const cut = COMPACT.length + 12; // inside the pretty object
    const first = readJsonStream(all.subarray(0, cut), 0);
    expect(values(first)).toEqual([{ id: "b", payload: {} }]);
    expect(faults(first)).toEqual([]);
    expect(first.consumed).toBe(COMPACT.length);
    // The caller passes only the bytes after `consumed`, with that offset.
    const second = readJsonStream(all.subarray(first.consumed), first.consumed);
    expect(values(second)).toEqual([{ id: "a", payload: { n: 1 } }]);
    expect(second.items[0]).toMatchObject({ start: COMPACT.length, end: all.length - 1 });
    expect(second.consumed).toBe(all.length);
  });

  it("does not count a truncated tail (no closing brace, half a UTF-8 character) as an error", () => {
    const bytes = enc(`${COMPACT}{"id":"進捗`).subarray(0, -1);
    const r = readJsonStream(bytes);
    expect(faults(r)).toEqual([]);
    expect(r.consumed).toBe(COMPACT.length);
    // A scalar at the very end may still be growing too.
    expect(readJsonStream(enc("12")).consumed).toBe(0);
  });

  it("reads CRLF line ends and a leading BOM", () => {
    const r = readJsonStream(enc(`\ufeff{\r\n  "a": 1\r\n}\r\n\r\n{"b":2}\r\n`));
    expect(values(r)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(faults(r)).toEqual([]);
  });

  it("reports a malformed value and resumes at the next one", () => {
    const text = `{"a":1,,}\n${COMPACT}`;
    const r = readJsonStream(enc(text));
    expect(values(r)).toEqual([{ id: "b", payload: {} }]);
    expect(faults(r)).toEqual([{ code: "parse", message: expect.stringMatching(/^The text at bytes 0–9 is not valid JSON/) }]);
  });

  it("ends a value cut off by a dead writer where the next value begins, instead of waiting forever", () => {
    const text = `{\n  "id": "x",\n  "payload": {\n${COMPACT}`;
    const r = readJsonStream(enc(text));
    expect(values(r)).toEqual([{ id: "b", payload: {} }]);
    expect(faults(r)[0]?.message).toMatch(/is cut off/);
    expect(r.consumed).toBe(enc(text).length);
  });

  it("skips binary garbage as one fault up to the next value", () => {
    const garbage = Buffer.from([0x00, 0xff, 0xfe, 0x7d, 0x0a, 0x01, 0x02, 0x0a]);
    const r = readJsonStream(Buffer.concat([garbage, enc(COMPACT)]));
    expect(values(r)).toEqual([{ id: "b", payload: {} }]);
    expect(faults(r)).toEqual([{ code: "parse", message: "The text at bytes 0–8 cannot begin a JSON value; reading resumed after it." }]);
  });

  it("refuses a multi-megabyte line as a limit problem, without parsing it, and reads on", () => {
    const big = `{"id":"big","pad":"${"x".repeat(3 * 1024 * 1024)}"}\n`;
    const r = readJsonStream(enc(big + COMPACT));
    expect(values(r)).toEqual([{ id: "b", payload: {} }]);
    expect(faults(r)).toEqual([{ code: "limit", message: expect.stringContaining("larger than 1048576 bytes") }]);
  });

  it("skips an unfinished value that is already over the limit, so later reads do not rescan it", () => {
    const r = readJsonStream(enc(`{"pad":"${"x".repeat(2 * 1024 * 1024)}`));
    expect(faults(r)[0]?.code).toBe("limit");
    expect(r.consumed).toBe(2 * 1024 * 1024 + 8);
  });

  it("refuses nesting over the depth cap as a limit problem", () => {
    const r = readJsonStream(enc(`${"[".repeat(10_000)}${"]".repeat(10_000)}\n${COMPACT}`));
    expect(faults(r)).toEqual([{ code: "limit", message: "The value at bytes 0–20000: nested more than 64 deep (limit)." }]);
    expect(values(r)).toHaveLength(1);
  });

  it("reads an empty file or only whitespace as nothing", () => {
    expect(readJsonStream(enc(""))).toEqual({ items: [], consumed: 0 });
    expect(readJsonStream(enc("\n\n  \n"), 10)).toEqual({ items: [], consumed: 15 });
  });

  it("keeps braces and newlines escaped inside strings in their value", () => {
    const r = readJsonStream(enc('{"a":"}{\\n\\"x"}\n'));
    expect(values(r)).toEqual([{ a: '}{\n"x' }]);
  });
});
