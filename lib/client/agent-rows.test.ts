import { describe, expect, it } from "vitest";
import type { AgentStats } from "@/lib/model";
import { VOCABULARY } from "@/lib/protocols";
import { agentRows, sortAgents } from "./agent-rows";

const stats = (agent: string, protocol: AgentStats["protocol"], counts: Record<string, number>, extra: Partial<AgentStats> = {}): AgentStats => ({
  source: `ws-${protocol}`, protocol, agent, counts, queued: 0, processing: 0, delivered: 0, retrying: 0, dead: 0, stuck: 0,
  waiting: 0, oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null, ...extra,
});

describe("the agents view's rows", () => {
  const rows = agentRows(
    VOCABULARY,
    [
      stats("leader", "ignite", { queued: 3, delivered: 5, dead: 2 }, { waiting: 3, lastActivityAt: "2026-11-26T10:00:00Z" }),
      stats("agent_security", "workflow", { unacked: 1, processed: 4 }, { waiting: 1 }),
      stats("karo", "shogun", { unread: 2, read: 8 }, { waiting: 2, stuck: 0 }),
    ],
    [{ source: "ws-workflow", health: { monitor: null, session: null, agents: [{ name: "agent_security", health: "unresponsive", detail: null }] } }],
  );

  it("count what waits and what failed by each protocol's own statuses", () => {
    expect(rows.find((r) => r.agent === "leader")).toMatchObject({ depth: 3, errorRate: 0.2, health: null, unhealthy: false });
    expect(rows.find((r) => r.agent === "karo")).toMatchObject({ depth: 2, errorRate: 0 });
    expect(rows.find((r) => r.agent === "agent_security")).toMatchObject({ depth: 1, health: "unresponsive", unhealthy: true });
  });

  it("count as waiting what the journal counts waiting on disk, not every message of a waiting status", () => {
    // What lib/journal/stats.ts counts: processing is its agent's, and an entry gone from its files waits for no one.
    const [coder] = agentRows(VOCABULARY, [stats("coder", "ignite", { processing: 1, retrying: 2, queued: 1 }, { stuck: 1, waiting: 3 })], null);
    expect(coder).toMatchObject({ depth: 3, stuck: 1, unhealthy: true });
    const [ashigaru2] = agentRows(VOCABULARY, [stats("ashigaru2", "shogun", { assigned: 2, done: 4 }, { waiting: 0 })], null);
    expect(ashigaru2).toMatchObject({ depth: 0 });
  });

  it("put the unhealthy first by default, and sort by any column both ways", () => {
    expect(sortAgents(rows, "attention", false).map((r) => r.agent)).toEqual(["agent_security", "leader", "karo"]);
    expect(sortAgents(rows, "depth", true).map((r) => r.agent)).toEqual(["leader", "karo", "agent_security"]);
    expect(sortAgents(rows, "errorRate", true)[0]?.agent).toBe("leader");
    expect(sortAgents(rows, "agent", false).map((r) => r.agent)).toEqual(["agent_security", "karo", "leader"]);
  });

  it("tell a live agent by its protocol's own health words", () => {
    const health = (source: string, name: string, word: string) => ({ source, health: { monitor: null, session: null, agents: [{ name, health: word, detail: null }] } });
    const of = (protocol: AgentStats["protocol"], word: string) =>
      agentRows(VOCABULARY, [stats("a", protocol, {})], [health(`ws-${protocol}`, "a", word)])[0]?.unhealthy;
    expect(of("workflow", "completed")).toBe(false);
    expect(of("workflow", "healthy")).toBe(false);
    expect(of("workflow", "stopped")).toBe(true);
    expect(of("ignite", "idle")).toBe(false);
    expect(of("ignite", "stale")).toBe(true);
    // idle is IGNITE's task_health word, not one the workflow registry gives a live agent.
    expect(of("workflow", "idle")).toBe(true);
  });
});
