import { describe, expect, it } from "vitest";
import { problemOf } from "./requeue-editor";

describe("Edit & requeue's check as you type", () => {
  it("says what the server would refuse: empty, over 1 MiB, a CR, YAML that does not parse", () => {
    expect(problemOf("  \n")).toBe("The body must not be empty.");
    // 400,000 three-byte characters: 1.14 MiB of UTF-8 in under a Mi of UTF-16 units.
    expect(problemOf(`note: ${"確".repeat(400_000)}\n`)).toMatch(/^The body is 1\.1\d MiB; the limit is 1 MiB\.$/);
    expect(problemOf("a: 1\r\nb: 2\n")).toMatch(/^The body must use LF line endings/);
    expect(problemOf("a: [\n")).toMatch(/line \d+/);
    expect(problemOf("task: a\nnote: b\n")).toBeNull();
  });
});
