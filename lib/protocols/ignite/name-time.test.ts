import { describe, expect, it } from "vitest";
import { nameTimeMs } from "./name-time";

describe("nameTimeMs", () => {
  it("reads the microseconds, seconds and a dead letter's own time from IGNITE's names", () => {
    expect(nameTimeMs(".ignite/queue/leader/task_assignment_1795306512005621.mime")).toBe(1795306512005);
    expect(nameTimeMs("queue/leader/processed/coordinator_task_completed_1795306512005621_4242.mime")).toBe(1795306512005);
    expect(nameTimeMs("queue/leader/escalation_1795306512.mime")).toBe(1795306512000);
    expect(nameTimeMs("queue/dead_letter/task_assignment_1795306512005621_dlq_1795306600.mime")).toBe(1795306600000);
  });

  it("says nothing of a name without a plausible time", () => {
    expect(nameTimeMs("queue/leader/hello.mime")).toBeNull();
    expect(nameTimeMs("queue/leader/report_12345678901234567.mime")).toBeNull();
    expect(nameTimeMs("queue/leader/0000000001.mime")).toBeNull();
  });
});
