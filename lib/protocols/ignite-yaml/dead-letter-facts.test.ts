import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import { deadLetterFacts } from "./dead-letter-facts";

describe("an IGNITE v2 dead letter's facts", () => {
  it("come from its failure_info and the original copied inside it", () => {
    const body = fs.readFileSync(fixturePath("ignite-yaml", "workspace", "queue", "dead_letter", "task_assignment_1770261903611907_dlq_1770263140.yaml"), "utf8");
    expect(deadLetterFacts(body)).toEqual({
      originalFile: "task_assignment_1770261903611907.yaml",
      originalTo: "ignitian_2",
      originalType: "task_assignment",
      originalFrom: "coordinator",
      threadId: "task_002",
      retryCount: 3,
      lastError: "timeout after 3 retries",
      movedAt: "2026-02-05T03:45:40.000Z",
    });
  });

  it("are empty, never an error, for a body that is not a dead letter", () => {
    expect(deadLetterFacts("not: [yaml")).toMatchObject({ originalFile: null, lastError: null });
  });
});
