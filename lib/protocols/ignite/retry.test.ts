import { describe, expect, it } from "vitest";
import { isoWithOffset } from "./build";
import { backoffCapSeconds, upstreamRetry, upstreamRetryCount } from "./retry";

// Expected texts are what upstream's ignite_mime.py steps (remove-header ×2, update-status with
// the retry extras, update-status again) wrote for these inputs, run by hand.
const at = new Date("2026-11-26T10:00:00Z");
const tail = (count: number) =>
  `X-IGNITE-Retry-Count: ${count}\nX-IGNITE-Last-Retry-At: ${isoWithOffset(at)}\nX-IGNITE-Next-Retry-After: ${isoWithOffset(new Date(at.getTime() + 3000))}`;
const retry = (raw: string, count = 0) => upstreamRetry(raw, count, at, 3).text;

describe("upstreamRetry (process_retry byte for byte)", () => {
  it("rewrites every X-IGNITE-Status line and drops every Error-* line", () => {
    const raw = "From: a\nX-IGNITE-Status: processing\nX-IGNITE-Error-Reason: x\nX-IGNITE-Status: error\nX-IGNITE-Error-At: t\n\nbody: 1\n";
    expect(retry(raw)).toBe(`From: a\nX-IGNITE-Status: retrying\nX-IGNITE-Status: retrying\n${tail(1)}\n\nbody: 1\n`);
  });

  it("writes a CRLF file with LF endings throughout, body included, as a text-mode rewrite does", () => {
    const raw = "From: a\r\nX-IGNITE-Status: processing\r\n\r\nb: 1\r\nc: 2\r\n";
    expect(retry(raw, 1)).toBe(`From: a\nX-IGNITE-Status: retrying\n${tail(2)}\n\nb: 1\nc: 2\n`);
  });

  it("keeps a BOM", () => {
    expect(retry("\uFEFFMIME-Version: 1.0\nX-IGNITE-Status: processing\n\nb: 1")).toBe(`\uFEFFMIME-Version: 1.0\nX-IGNITE-Status: retrying\n${tail(1)}\n\nb: 1`);
  });

  it("reads a file without an empty line as all headers and appends one", () => {
    expect(retry("From: a\nX-IGNITE-Status: processing\nnot a header")).toBe(`From: a\nX-IGNITE-Status: retrying\nnot a header\n${tail(1)}\n\n`);
  });

  it("splits header lines where Python's splitlines does (a vertical tab)", () => {
    expect(retry("From: a\vTo: b\nX-IGNITE-Status: processing\n\nb")).toBe(`From: a\nTo: b\nX-IGNITE-Status: retrying\n${tail(1)}\n\nb`);
  });
});

describe("upstreamRetryCount (grep -m1, sed, bash arithmetic)", () => {
  const count = (raw: string) => upstreamRetryCount(raw);
  it("reads decimal, octal with a leading 0, hex, blanks around, and none as 0", () => {
    expect(count("A: 1\n\nb")).toEqual({ ok: true, count: 0 });
    expect(count("X-IGNITE-Retry-Count:\n\nb")).toEqual({ ok: true, count: 0 });
    expect(count("X-IGNITE-Retry-Count: 2\n\nb")).toEqual({ ok: true, count: 2 });
    expect(count("X-IGNITE-Retry-Count:\t 2 \n\nb")).toEqual({ ok: true, count: 2 });
    expect(count("X-IGNITE-Retry-Count: 010\n\nb")).toEqual({ ok: true, count: 8 });
    expect(count("X-IGNITE-Retry-Count: 0x10\n\nb")).toEqual({ ok: true, count: 16 });
  });

  it("takes the first matching line of the whole file, the body's too", () => {
    expect(count("X-IGNITE-Retry-Count: 1\nX-IGNITE-Retry-Count: 4\n\nb")).toEqual({ ok: true, count: 1 });
    expect(count("From: a\n\nX-IGNITE-Retry-Count: 5\n")).toEqual({ ok: true, count: 5 });
  });

  it("refuses, with the reason, what bash would fail on or evaluate as an expression", () => {
    const crlf = count("From: a\r\nX-IGNITE-Retry-Count: 1\r\n\r\nb");
    expect(crlf).toMatchObject({ ok: false, reason: expect.stringContaining("CR") });
    expect(count("X-IGNITE-Retry-Count: 08\n\nb")).toMatchObject({ ok: false });
    expect(count("X-IGNITE-Retry-Count: two\n\nb")).toMatchObject({ ok: false, reason: expect.stringContaining('"two"') });
    expect(count("X-IGNITE-Retry-Count: -1\n\nb")).toMatchObject({ ok: false });
  });

  it("caps the backoff as calculate_backoff does", () => {
    // As bash computed them: 5 × 2^62 wraps to 2^62, 2^63 to a negative number (no jitter), a shift by 64 is by 0.
    expect([0, 1, 5, 6, 62, 63, 64].map(backoffCapSeconds)).toEqual([5, 10, 160, 300, 300, 0, 5]);
  });
});
