import { describe, expect, it } from "vitest";
import { agentAt } from "./agent-param";

const known = new Set(["leader", "⫻command/dispatch", "Kick La Metta", "100%"]);
const isKnown = (a: string) => known.has(a);

describe("agentAt", () => {
  it("opens any agent the journal knows, IGNITE queue names and channel names alike", () => {
    expect(agentAt("leader", isKnown)).toBe("leader");
    expect(agentAt("⫻command/dispatch", isKnown)).toBe("⫻command/dispatch");
    expect(agentAt("Kick La Metta", isKnown)).toBe("Kick La Metta");
    expect(agentAt("100%", isKnown)).toBe("100%");
  });

  it("decodes a segment that arrives still encoded", () => {
    expect(agentAt(encodeURIComponent("⫻command/dispatch"), isKnown)).toBe("⫻command/dispatch");
  });

  it("is null for an unknown, empty, badly encoded or overlong name", () => {
    expect(agentAt("nobody", isKnown)).toBeNull();
    expect(agentAt("", isKnown)).toBeNull();
    expect(agentAt("%E0%A4%A", isKnown)).toBeNull();
    expect(agentAt("a".repeat(2000), () => true)).toBeNull();
  });
});
