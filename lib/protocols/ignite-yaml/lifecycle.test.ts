import { describe, expect, it } from "vitest";
import { markedRequeued, requeuedTo, unmarked } from "./lifecycle";

const LETTER = 'type: dead_letter\noriginal_file: "t_1.yaml"\noriginal_message: |\n    type: task_assignment\n';

describe("a requeue's mark on an IGNITE v2 dead letter", () => {
  it("is a last top-level key, and comes off byte for byte", () => {
    const marked = markedRequeued(LETTER, "queue/coder/t_1.yaml");
    expect(marked).toBe(`${LETTER}requeued_to: "queue/coder/t_1.yaml"\n`);
    expect(requeuedTo(marked)).toBe("queue/coder/t_1.yaml");
    expect(unmarked(marked)).toBe(LETTER);
    expect(unmarked(LETTER)).toBeNull();
  });

  it("puts back a file without a final line ending, and a CRLF one, exactly", () => {
    for (const text of [LETTER.slice(0, -1), LETTER.replaceAll("\n", "\r\n"), LETTER.replaceAll("\n", "\r\n").slice(0, -2), ""]) {
      const marked = markedRequeued(text, "queue/coder/t_1.yaml");
      expect(requeuedTo(marked), JSON.stringify(text)).toBe("queue/coder/t_1.yaml");
      expect(unmarked(marked), JSON.stringify(text)).toBe(text);
    }
  });

  it("replaces a mark already there instead of adding a duplicate key", () => {
    const twice = markedRequeued(markedRequeued(LETTER, "queue/a/t_1.yaml"), "queue/b/t_1.yaml");
    expect(twice.match(/^requeued_to:/gm)).toHaveLength(1);
    expect(requeuedTo(twice)).toBe("queue/b/t_1.yaml");
    expect(unmarked(twice)).toBe(LETTER);
  });
});
