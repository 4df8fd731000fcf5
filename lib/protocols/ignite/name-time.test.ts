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

describe("nameTimeMs, against the rule as a regular expression", () => {
  const TIME_RUN = /(?<!\d)(\d{16}|\d{10})(?!\d)/g;
  function byPattern(relPath: string): number | null {
    const runs = relPath.slice(relPath.lastIndexOf("/") + 1).match(TIME_RUN);
    const last = runs?.[runs.length - 1];
    if (!last) return null;
    const ms = last.length === 16 ? Number(last.slice(0, 13)) : Number(last) * 1000;
    return ms >= Date.parse("2000-01-01T00:00:00Z") ? ms : null;
  }

  it("agrees on names made of digits, letters and separators of every run length", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const part = () => {
      const kind = random(4);
      if (kind === 0) return "_";
      if (kind === 1) return "task";
      const len = [9, 10, 11, 15, 16, 17, 13, 1][random(8)] ?? 1;
      return Array.from({ length: len }, (_, i) => String(i === 0 ? 1 + random(9) : random(10))).join("");
    };
    for (let i = 0; i < 5000; i++) {
      const name = `q/1795306512/${Array.from({ length: 1 + random(6) }, part).join("")}${random(2) ? ".mime" : ""}`;
      expect(nameTimeMs(name), name).toBe(byPattern(name));
    }
  });
});
