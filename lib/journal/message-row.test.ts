import { describe, expect, it } from "vitest";
import { previewOf } from "./message-row";

/** What the preview means: every whitespace run one space, trimmed, the first 160 characters. */
const reference = (body: string) => body.replace(/\s+/g, " ").trim().slice(0, 160);

describe("previewOf", () => {
  it("collapses whitespace and keeps the first 160 characters", () => {
    expect(previewOf("  task_id: t1\n\n  title:\t\"x\"  ")).toBe('task_id: t1 title: "x"');
    expect(previewOf("")).toBe("");
    expect(previewOf(" \n\t ")).toBe("");
  });

  it("reads only a prefix of a long body, with the same result as reading it whole", () => {
    const bodies = [
      "語".repeat(2000),
      `${" ".repeat(700)}late start`,
      `${"a".repeat(150)}${" ".repeat(600)}${"b".repeat(50)}`,
      `${"x ".repeat(300)}\n`,
      `${"y".repeat(160)} ${" ".repeat(1000)}`,
      `${"z".repeat(161)}${"\n".repeat(900)}`,
      `${"w".repeat(159)}\u3000\u3000${"v".repeat(700)}`,
      `${"c".repeat(100)}${" ".repeat(215)}${"d".repeat(100)}`,
      `${"e".repeat(161)}${" ".repeat(159)}${"f".repeat(10)}`,
      `${"g ".repeat(80)}${" ".repeat(2000)}h`,
      "😀".repeat(200),
      `${" ".repeat(319)}${"😀".repeat(200)}`,
      `${"i".repeat(319)}😀${"j".repeat(10)}`,
    ];
    for (const body of bodies) expect(previewOf(body)).toBe(reference(body));
  });
});
