// The pure parts of the thread page: graph model and layout, sequence layout, replay steps.
import { describe, expect, it } from "vitest";
import type { MessageSummary } from "@/lib/model";
import type { ThreadDetail } from "@/lib/threads/model";
import { layoutGraph, NODE_H } from "./graph-layout";
import { graphModel } from "./graph-model";
import { phaseOf, ReplayStore } from "./replay-store";
import { FIT_MIN_LANE_W, GUTTER, sequenceLayout, visibleRows } from "./sequence-layout";

function msg(key: string, from: string, to: string[], extra: Partial<MessageSummary> = {}): MessageSummary {
  return {
    key, source: "ws", protocol: "ignite", messageId: `<${key}@t>`, from, to, cc: [], type: "note", priority: "normal",
    threadId: "thr", inReplyTo: null, correlationId: null, repository: null, issue: null, date: "2026-11-20T00:00:00.000Z",
    agent: to[0] ?? from, folder: "queue", path: null, status: "queued", rawStatus: null, stuck: false, retryCount: 0,
    nextRetryAt: null, problems: [], duplicate: false, deadLetterOf: null, preview: "", size: 1, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1,
    ...extra,
  };
}

const thread: ThreadDetail = {
  id: "thr",
  kind: "header",
  seq: 1,
  messages: [msg("a", "user", ["leader"]), msg("b", "leader", ["strategist", "architect"]), msg("c", "queue_monitor", ["leader"], { deadLetterOf: "b" })],
  edges: [{ from: "a", to: "b", kind: "reply" }, { from: "missing:<x@t>", to: "a", kind: "reply" }],
  branches: [{ from: "b", to: "c", kind: "dead-letter" }, { from: "c", to: "b", kind: "requeue" }],
  missing: [{ id: "missing:<x@t>", messageId: "<x@t>", key: null }],
};

describe("graph", () => {
  it("has a node per message and placeholder, an edge per link, and lays out without the requeue loop", () => {
    const model = graphModel(thread);
    expect(model.nodes.map((n) => `${n.type}:${n.id}`)).toEqual(["missing:missing:<x@t>", "message:a", "message:b", "message:c"]);
    expect(model.edges.map((e) => [e.source, e.target, e.data?.kind, e.label])).toEqual([
      ["a", "b", "reply", undefined],
      ["missing:<x@t>", "a", "reply", undefined],
      ["b", "c", "dead-letter", "dead letter"],
      ["c", "b", "requeue", "requeued"],
    ]);
    expect(model.layout.edges).toHaveLength(3);
    const p = layoutGraph(model.layout);
    // Top to bottom: the placeholder above a, a above b, b above its dead letter.
    expect(p["missing:<x@t>"]!.y).toBeLessThan(p.a!.y);
    expect(p.a!.y + NODE_H).toBeLessThan(p.b!.y);
    expect(p.b!.y).toBeLessThan(p.c!.y);
  });

  it("keeps its signature through a status change and changes it when a message arrives", () => {
    const changed = { ...thread, messages: thread.messages.map((m) => ({ ...m, status: "delivered" as const })) };
    expect(graphModel(changed).signature).toBe(graphModel(thread).signature);
    const grown = { ...thread, messages: [...thread.messages, msg("d", "leader", ["user"])] };
    expect(graphModel(grown).signature).not.toBe(graphModel(thread).signature);
  });
});

describe("sequence", () => {
  it("puts agents in lanes by first appearance and draws one arrow per recipient", () => {
    const s = sequenceLayout(thread.messages);
    expect(s.lanes).toEqual(["user", "leader", "strategist", "architect", "queue_monitor"]);
    expect(s.arrows.map((a) => [a.index, s.lanes[a.from], a.recipient])).toEqual([
      [0, "user", "leader"],
      [1, "leader", "strategist"],
      [1, "leader", "architect"],
      [2, "queue_monitor", "leader"],
    ]);
  });

  it("shrinks lanes further to fit a screen with no mouse to scroll by (the presenter's nine IGNITE lanes at 1280 × 720)", () => {
    const nine = Array.from({ length: 8 }, (_, i) => msg(`m${i}`, "leader", [`agent_${i}`]));
    expect(sequenceLayout(nine, 900).width).toBeGreaterThan(900);
    const fit = sequenceLayout(nine, 900, FIT_MIN_LANE_W);
    expect(fit.width).toBeLessThanOrEqual(900);
    expect(fit.laneW).toBe(Math.floor((900 - GUTTER) / 9));
  });

  it("draws only the rows near the viewport of a long thread", () => {
    expect(visibleRows(0, 340, 2000)).toEqual([0, 25]);
    expect(visibleRows(34 * 1000, 340, 2000)).toEqual([985, 1025]);
    expect(visibleRows(34 * 1995, 340, 2000)).toEqual([1980, 1999]);
  });
});

describe("replay", () => {
  it("steps within the thread, pauses at the end, and phases past / current / future", () => {
    const store = new ReplayStore();
    expect(phaseOf(store.get().step, 0)).toBe("idle");
    store.goTo(-5, 3);
    expect(store.get()).toMatchObject({ step: 0, playing: false });
    store.set({ playing: true });
    store.goTo(1, 3, true);
    expect(store.get()).toMatchObject({ step: 1, playing: true });
    store.goTo(2, 3, true);
    expect(store.get()).toMatchObject({ step: 2, playing: false });
    expect([0, 1, 2].map((i) => phaseOf(1, i))).toEqual(["past", "current", "future"]);
  });
});
