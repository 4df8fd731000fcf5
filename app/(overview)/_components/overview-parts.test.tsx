// The overview's parts, rendered to markup: its notices and the agents table.
import { describe, expect, it } from "vitest";
import { renderWithCatalogs } from "@/lib/testing/render";
import type { AgentStats } from "@/lib/model";
import { AgentsTable } from "./agents-table";

/** IGNITE v3's count columns, as they always were. */
const IGNITE_COUNTS = ["Queued", "Processing", "Delivered", "Retrying", "Dead", "Stuck"];
import { RetryNotice } from "./retry-notice";
import { StatusTotals } from "./status-totals";
import { StuckNotice } from "./stuck-notice";

const agent = (name: string, retrying: number, stuck = 0): AgentStats => ({
  source: "ws-ignite", protocol: "ignite", agent: name, counts: retrying > 0 ? { retrying } : {}, queued: 0, processing: 0, delivered: 0, retrying, dead: 0, stuck,
  waiting: 0, oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null,
});

describe("RetryNotice", () => {
  it("counts the retrying messages of every agent, grouped by thousands as the totals are", () => {
    const html = renderWithCatalogs(<RetryNotice agents={[agent("leader", 1500), agent("coordinator", 513), agent("evaluator", 0)]} />);
    expect(html).toContain("2,013 messages are waiting to be retried");
    expect(html).toContain("leader, coordinator");
    expect(html).not.toContain("evaluator");
  });

  it("says one message in the singular, and nothing when none is retrying", () => {
    expect(renderWithCatalogs(<RetryNotice agents={[agent("leader", 1)]} />)).toContain("1 message is waiting to be retried");
    expect(renderWithCatalogs(<RetryNotice agents={[agent("leader", 0)]} />)).toBe("");
  });
});

describe("StuckNotice", () => {
  it("counts the stuck messages of every agent, grouped by thousands, with a link to them", () => {
    const html = renderWithCatalogs(<StuckNotice agents={[agent("leader", 0, 1200), agent("coordinator", 0, 788)]} />);
    expect(html).toContain("1,988 messages are stuck");
    expect(html).toContain('href="/messages?q=is%3Astuck"');
  });

  it("says one message in the singular, and nothing when none is stuck", () => {
    expect(renderWithCatalogs(<StuckNotice agents={[agent("leader", 0, 1)]} />)).toContain("1 message is stuck");
    expect(renderWithCatalogs(<StuckNotice agents={[agent("leader", 5, 0)]} />)).toBe("");
  });
});

describe("StuckNotice over several protocols", () => {
  it("calls another protocol's past-due entries overdue, IGNITE's stuck, and links to both", () => {
    const overdue = { ...agent("agent_security", 0, 2), protocol: "workflow" as const };
    const only = renderWithCatalogs(<StuckNotice agents={[overdue]} />);
    expect(only).toContain("2 messages are overdue");
    expect(only).toContain("Past the time their ack or answer was due.");
    expect(only).not.toContain("Processing for longer");
    const both = renderWithCatalogs(<StuckNotice agents={[overdue, agent("leader", 0, 1)]} />);
    expect(both).toContain("3 messages are stuck or overdue");
    expect(both).toContain("Processing for longer than the timeout.");
    expect(both).toContain('href="/messages?q=is%3Astuck"');
  });
});

describe("AgentsTable", () => {
  it("groups each agent's counts by thousands, as the totals above it are", () => {
    const html = renderWithCatalogs(<AgentsTable agents={[{ ...agent("leader", 1500, 2), delivered: 6452, counts: { retrying: 1500, delivered: 6452 } }]} />);
    expect(html).toContain(">6,452<");
    expect(html).toContain(">1,500<");
  });
});

describe("StatusTotals", () => {
  it("counts the dead messages and the dead letters holding them apart, side by side, each linking to what it counts", () => {
    const html = renderWithCatalogs(<StatusTotals totals={{ messages: 5, queued: 2, dead: 1, deadLetters: 1, invalid: 1 }} />);
    const labels = [...html.matchAll(/<span class="text-sm[^"]*">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(labels).toEqual(["messages", "queued", "dead", "dead letter", "invalid"]);
    expect(html).toContain(`href="/messages?q=${encodeURIComponent("status:dead -folder:dead_letter").replace(/%20/g, "+")}"`);
    expect(html).toContain('href="/dead-letters"');
  });
});

describe("AgentsTable over several protocols", () => {
  const of = (protocol: AgentStats["protocol"], source: string, name: string, counts: Record<string, number>, stuck = 0): AgentStats => ({
    ...agent(name, counts.retrying ?? 0, stuck), protocol, source, counts,
  });
  const headers = (html: string, caption: string) => {
    const table = html.split("<table").find((t) => t.includes(`>${caption}<`)) ?? "";
    return [...table.matchAll(/<th scope="col"[^>]*>([^<]+)<\/th>/g)].map((m) => m[1]);
  };
  const mixed = [
    of("ignite", "ws-ignite", "leader", { queued: 2 }, 1),
    of("shogun", "ws-shogun", "karo", { unread: 3, done: 1200, read: 4 }),
    of("workflow", "ws-workflow", "agent security", { unacked: 1 }, 1),
  ];

  it("shows a protocol alone as one table of its columns, under no protocol heading", () => {
    const html = renderWithCatalogs(<AgentsTable agents={[of("ignite", "ws-ignite", "leader", { queued: 2 })]} />);
    expect(headers(html, "Agents and their message counts")).toEqual(["Agent", ...IGNITE_COUNTS, "Oldest queued", "Last activity"]);
    expect(html).not.toContain("<h3");
    const shogun = renderWithCatalogs(<AgentsTable agents={[of("shogun", "ws-shogun", "karo", { unread: 3 })]} />);
    expect(headers(shogun, "Agents and their message counts")).toEqual(["Agent", "Unread", "Assigned", "In progress", "Blocked", "Done", "Failed", "Oldest open", "Last activity"]);
    expect(shogun).not.toContain("<h3");
  });

  it("gives each protocol present its own table, headed by its name and sources, with its catalog's columns", () => {
    const html = renderWithCatalogs(<AgentsTable agents={mixed} />);
    expect(html).not.toContain(">Agents and their message counts<");
    expect(headers(html, "IGNITE v3 agents and their counts by status")).toEqual(["Agent", ...IGNITE_COUNTS, "Oldest queued", "Last activity"]);
    // shogun's entries have no due time: no past-due column.
    expect(headers(html, "shogun agents and their counts by status")).toEqual(["Agent", "Unread", "Assigned", "In progress", "Blocked", "Done", "Failed", "Oldest open", "Last activity"]);
    expect(headers(html, "workflow agents and their counts by status")).toEqual(["Agent", "Unacked", "Received", "Processed", "Sent", "Overdue", "Oldest open", "Last activity"]);
    const headings = [...html.matchAll(/<h3[^>]*>([^<]+)<span[^>]*>([^<]+)<\/span><\/h3>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(headings).toEqual(["IGNITE v3 ws-ignite", "shogun ws-shogun", "workflow ws-workflow"]);
    expect(html).toContain(">1,200<");
  });

  it("links each count to its source's agent's messages of that status, and a past-due count to its stuck ones", () => {
    const html = renderWithCatalogs(<AgentsTable agents={mixed} />);
    const href = (q: string) => `href="/messages?q=${encodeURIComponent(q).replace(/%20/g, "+")}"`;
    // With its source: another workspace's agent of the same name is not counted, so not listed.
    expect(html).toContain(href("source:ws-shogun agent:karo status:unread"));
    expect(html).toContain(href("source:ws-ignite agent:leader status:queued"));
    expect(html).toContain(href('source:ws-workflow agent:"agent security" status:unacked'));
    expect(html).toContain(href('source:ws-workflow agent:"agent security" is:stuck'));
    // A zero lists nothing: no link.
    expect(html).not.toContain(href("source:ws-shogun agent:karo status:assigned"));
  });
});
