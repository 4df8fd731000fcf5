import { describe, expect, it } from "vitest";
import { lineDiff } from "./line-diff";

describe("lineDiff", () => {
  it("marks added and removed lines and keeps the rest", () => {
    const d = lineDiff('task_id: "t1"\ntitle: old\n', 'task_id: "t1"\ntitle: new\nnote: added\n');
    expect(d.lines).toEqual([
      { kind: "same", text: 'task_id: "t1"' },
      { kind: "removed", text: "title: old" },
      { kind: "added", text: "title: new" },
      { kind: "added", text: "note: added" },
    ]);
    expect([d.added, d.removed]).toEqual([2, 1]);
  });

  it("finds nothing to show for the same text", () => {
    expect(lineDiff("a: 1\n", "a: 1\n")).toMatchObject({ added: 0, removed: 0 });
  });
});
