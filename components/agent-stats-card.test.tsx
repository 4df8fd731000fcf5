import { describe, expect, it } from "vitest";
import { renderWithCatalogs } from "@/lib/testing/render";
import type { AgentStats } from "@/lib/model";
import { AgentStatsCard } from "./agent-stats-card";

const leader: AgentStats = {
  source: "ws-ignite", protocol: "ignite", agent: "leader", counts: { queued: 214, processing: 140, delivered: 6452, dead: 80 }, queued: 214, processing: 140, delivered: 6452, retrying: 0, dead: 80, stuck: 1200,
  waiting: 0, oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null,
};

describe("AgentStatsCard", () => {
  it("groups its counts by thousands, as the overview's totals are", () => {
    const html = renderWithCatalogs(<AgentStatsCard stats={leader} />);
    expect(html).toContain(">6,452<");
    expect(html).toContain(">1,200<");
    expect(html).toContain(">214<");
  });

  it("shows an agent of another protocol in its protocol's own columns", () => {
    const agent: AgentStats = { ...leader, protocol: "workflow", agent: "agent_security", counts: { unacked: 3, processed: 9 }, queued: 0, processing: 0, delivered: 0, dead: 0, stuck: 2 };
    const html = renderWithCatalogs(<AgentStatsCard stats={agent} />);
    for (const label of ["Unacked", "Received", "Processed", "Sent", "Overdue", "Oldest open"]) expect(html).toContain(`>${label}<`);
    expect(html).not.toContain(">Queued<");
    expect(html).toContain(">3<");
  });
});
