// The overview's parts, rendered to markup: its notices and the agents table.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AgentStats } from "@/lib/model";
import { AgentsTable } from "./agents-table";
import { RetryNotice } from "./retry-notice";
import { StatusTotals } from "./status-totals";
import { StuckNotice } from "./stuck-notice";

const agent = (name: string, retrying: number, stuck = 0): AgentStats => ({
  source: "ws-ignite", protocol: "ignite", agent: name, counts: retrying > 0 ? { retrying } : {}, queued: 0, processing: 0, delivered: 0, retrying, dead: 0, stuck,
  oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null,
});

describe("RetryNotice", () => {
  it("counts the retrying messages of every agent, grouped by thousands as the totals are", () => {
    const html = renderToStaticMarkup(<RetryNotice agents={[agent("leader", 1500), agent("coordinator", 513), agent("evaluator", 0)]} />);
    expect(html).toContain("2,013 messages are waiting to be retried");
    expect(html).toContain("leader, coordinator");
    expect(html).not.toContain("evaluator");
  });

  it("says one message in the singular, and nothing when none is retrying", () => {
    expect(renderToStaticMarkup(<RetryNotice agents={[agent("leader", 1)]} />)).toContain("1 message is waiting to be retried");
    expect(renderToStaticMarkup(<RetryNotice agents={[agent("leader", 0)]} />)).toBe("");
  });
});

describe("StuckNotice", () => {
  it("counts the stuck messages of every agent, grouped by thousands, with a link to them", () => {
    const html = renderToStaticMarkup(<StuckNotice agents={[agent("leader", 0, 1200), agent("coordinator", 0, 788)]} />);
    expect(html).toContain("1,988 messages are stuck");
    expect(html).toContain('href="/messages?q=is%3Astuck"');
  });

  it("says one message in the singular, and nothing when none is stuck", () => {
    expect(renderToStaticMarkup(<StuckNotice agents={[agent("leader", 0, 1)]} />)).toContain("1 message is stuck");
    expect(renderToStaticMarkup(<StuckNotice agents={[agent("leader", 5, 0)]} />)).toBe("");
  });
});

describe("AgentsTable", () => {
  it("groups each agent's counts by thousands, as the totals above it are", () => {
    const html = renderToStaticMarkup(<AgentsTable agents={[{ ...agent("leader", 1500, 2), delivered: 6452 }]} />);
    expect(html).toContain(">6,452<");
    expect(html).toContain(">1,500<");
  });
});

describe("StatusTotals", () => {
  it("counts the dead messages and the dead letters holding them apart, side by side, each linking to what it counts", () => {
    const html = renderToStaticMarkup(<StatusTotals totals={{ messages: 5, queued: 2, dead: 1, deadLetters: 1, invalid: 1 }} />);
    const labels = [...html.matchAll(/<span class="text-sm[^"]*">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(labels).toEqual(["messages", "queued", "dead", "dead letter", "invalid"]);
    expect(html).toContain(`href="/messages?q=${encodeURIComponent("status:dead -folder:dead_letter").replace(/%20/g, "+")}"`);
    expect(html).toContain('href="/dead-letters"');
  });
});
