import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AgentStats } from "@/lib/model";
import { AgentStatsCard } from "./agent-stats-card";

const leader: AgentStats = {
  source: "ws-ignite", protocol: "ignite", agent: "leader", counts: { queued: 214, processing: 140, delivered: 6452, dead: 80 }, queued: 214, processing: 140, delivered: 6452, retrying: 0, dead: 80, stuck: 1200,
  oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null,
};

describe("AgentStatsCard", () => {
  it("groups its counts by thousands, as the overview's totals are", () => {
    const html = renderToStaticMarkup(<AgentStatsCard stats={leader} />);
    expect(html).toContain(">6,452<");
    expect(html).toContain(">1,200<");
    expect(html).toContain(">214<");
  });
});
