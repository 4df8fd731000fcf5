import { describe, expect, it } from "vitest";
import type { AgentStats } from "@/lib/model";
import { VOCABULARY } from "@/lib/protocols";
import { columnsOf } from "./agent-columns";

const agent = { source: "ws-ignite", agent: "coder" } as AgentStats;

describe("an agent's count columns", () => {
  it("show IGNITE's next retry under its retrying count, and leave dead letters out of its dead count's search", () => {
    const { counts } = columnsOf(VOCABULARY, "ignite");
    expect(counts.filter((c) => c.retries).map((c) => c.key)).toEqual(["retrying"]);
    expect(counts.find((c) => c.key === "dead")?.query(agent)).toBe("source:ws-ignite agent:coder status:dead -folder:dead_letter");
    expect(counts.find((c) => c.key === "queued")?.query(agent)).toBe("source:ws-ignite agent:coder status:queued");
    expect(counts.find((c) => c.key === "stuck")?.retries).toBe(false);
  });

  it("show no retry and no dead-letter exclusion for a protocol without them", () => {
    const { counts } = columnsOf(VOCABULARY, "shogun");
    expect(counts.some((c) => c.retries)).toBe(false);
    expect(counts.find((c) => c.key === "failed")?.query(agent)).toBe("source:ws-ignite agent:coder status:failed");
  });
});
