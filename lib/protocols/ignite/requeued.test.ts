import { describe, expect, it } from "vitest";
import { markedRequeued, requeuedTo, unmarked } from "./requeued";

const LETTER = "MIME-Version: 1.0\nMessage-ID: <l@x>\nX-IGNITE-Type: dead_letter\n\noriginal_file: t.mime\n";

describe("a requeue's mark on the dead letter it archives", () => {
  it("is one header, last in the block, and comes off byte for byte", () => {
    const marked = markedRequeued(LETTER, ".ignite/queue/coder/t.mime");
    expect(marked).toBe("MIME-Version: 1.0\nMessage-ID: <l@x>\nX-IGNITE-Type: dead_letter\nX-IGNITE-Requeued-To: .ignite/queue/coder/t.mime\n\noriginal_file: t.mime\n");
    expect(requeuedTo(marked)).toBe(".ignite/queue/coder/t.mime");
    expect(unmarked(marked)).toBe(LETTER);
    expect(unmarked(LETTER)).toBeNull();
  });

  it("keeps a CRLF letter's line endings, and a body line that looks like the mark", () => {
    const crlf = `${LETTER.replaceAll("\n", "\r\n")}X-IGNITE-Requeued-To: not a header\r\n`;
    const marked = markedRequeued(crlf, "queue/a/t.mime");
    expect(marked).toContain("X-IGNITE-Type: dead_letter\r\nX-IGNITE-Requeued-To: queue/a/t.mime\r\n\r\n");
    expect(requeuedTo(marked)).toBe("queue/a/t.mime");
    expect(unmarked(marked)).toBe(crlf);
  });

  it("replaces a mark already there (in any case) instead of adding a second", () => {
    const twice = markedRequeued(markedRequeued(LETTER, "queue/a/t.mime").replace("X-IGNITE-Requeued-To", "x-ignite-requeued-to"), "queue/b/t.mime");
    expect(twice.match(/requeued-to/gi)).toHaveLength(1);
    expect(requeuedTo(twice)).toBe("queue/b/t.mime");
    expect(unmarked(twice)).toBe(LETTER);
  });

  it("refuses a value with a line break, and a letter without a header block", () => {
    expect(() => markedRequeued(LETTER, "queue/a/t.mime\nX-Evil: 1")).toThrow(/could not be written/);
    expect(() => markedRequeued("no header block", "queue/a/t.mime")).toThrow(/no header block/);
  });
});
