import { describe, expect, it } from "vitest";
import type { MessageSummary } from "@/lib/model";
import { appendOlder, applyPoll, initTimeline, showPending, type TimelineState } from "./timeline";

function msg(key: string, minute: number, extra: Partial<MessageSummary> = {}): MessageSummary {
  const date = new Date(Date.UTC(2026, 10, 20, 0, minute)).toISOString();
  return {
    key,
    source: "ws",
    protocol: "ignite",
    messageId: `<${key}@test>`,
    from: "leader",
    to: ["ignitian_1"],
    cc: [],
    type: "task_assignment",
    priority: "normal",
    threadId: null,
    inReplyTo: null,
    correlationId: null,
    repository: null,
    issue: null,
    date,
    agent: "ignitian_1",
    folder: "queue",
    path: `.ignite/queue/ignitian_1/${key}.mime`,
    status: "queued",
    rawStatus: null,
    stuck: false,
    retryCount: 0,
    nextRetryAt: null,
    problems: [],
    duplicate: false,
    deadLetterOf: null,
    preview: "",
    size: 100,
    updatedAt: date,
    seq: 1,
    ...extra,
  };
}

const keysOf = (s: TimelineState, which: "items" | "pending" = "items") => s[which].map((m) => m.key);

describe("applyPoll", () => {
  const start = initTimeline({ items: [msg("c", 30), msg("b", 20), msg("a", 10)], nextCursor: null, seq: 5 });

  it("returns the same state when nothing changed", () => {
    expect(applyPoll(start, { items: [], nextCursor: null, seq: 5 })).toBe(start);
    expect(applyPoll(start, { items: [], nextCursor: null, seq: 6 }).seq).toBe(6);
  });

  it("updates shown messages in place without moving them", () => {
    const next = applyPoll(start, { items: [msg("b", 20, { status: "delivered" })], nextCursor: null, seq: 7 });
    expect(keysOf(next)).toEqual(["c", "b", "a"]);
    expect(next.items[1]?.status).toBe("delivered");
    expect(next.pending).toEqual([]);
    expect(next.seq).toBe(7);
  });

  it("holds new messages back as pending instead of inserting them", () => {
    const next = applyPoll(start, { items: [msg("d", 40), msg("e", 50)], nextCursor: null, seq: 8 });
    expect(keysOf(next)).toEqual(["c", "b", "a"]);
    expect(keysOf(next, "pending").sort()).toEqual(["d", "e"]);
  });

  it("updates a pending message instead of counting it twice", () => {
    const once = applyPoll(start, { items: [msg("d", 40)], nextCursor: null, seq: 8 });
    const twice = applyPoll(once, { items: [msg("d", 40, { status: "processing" })], nextCursor: null, seq: 9 });
    expect(twice.pending).toHaveLength(1);
    expect(twice.pending[0]?.status).toBe("processing");
  });

  it("drops removed keys from the list and from pending", () => {
    const once = applyPoll(start, { items: [msg("d", 40)], nextCursor: null, seq: 8 });
    const next = applyPoll(once, { items: [], removed: ["b", "d"], nextCursor: null, seq: 9 });
    expect(keysOf(next)).toEqual(["c", "a"]);
    expect(next.pending).toEqual([]);
  });

  it("leaves changes below the loaded pages to Load older", () => {
    const paged = initTimeline({ items: [msg("c", 30), msg("b", 20)], nextCursor: "cur", seq: 5 });
    const next = applyPoll(paged, { items: [msg("a", 10, { status: "dead" }), msg("d", 40)], nextCursor: null, seq: 6 });
    expect(keysOf(next, "pending")).toEqual(["d"]);
  });
});

describe("showPending", () => {
  it("merges pending messages into the list, newest first", () => {
    const start = initTimeline({ items: [msg("c", 30), msg("a", 10)], nextCursor: null, seq: 5 });
    const polled = applyPoll(start, { items: [msg("b", 20), msg("d", 40)], nextCursor: null, seq: 6 });
    const shown = showPending(polled);
    expect(keysOf(shown)).toEqual(["d", "c", "b", "a"]);
    expect(shown.pending).toEqual([]);
  });
});

describe("appendOlder", () => {
  it("appends an older page, skipping what is already shown, and takes its cursor", () => {
    const start = initTimeline({ items: [msg("c", 30), msg("b", 20)], nextCursor: "cur", seq: 5 });
    const next = appendOlder(start, { items: [msg("b", 20), msg("a", 10)], nextCursor: null, seq: 9 });
    expect(keysOf(next)).toEqual(["c", "b", "a"]);
    expect(next.nextCursor).toBeNull();
    expect(next.seq).toBe(5);
  });
});
