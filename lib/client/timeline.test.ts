import { describe, expect, it } from "vitest";
import type { MessageSummary } from "@/lib/model";
import { appendOlder, applyPoll, initTimeline, PENDING_LIMIT, showPending, timelineReducer, type TimelineState } from "./timeline";

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
    sortMs: Date.parse(date),
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

  it("shows what waited once the list's last rows leave: an emptied list has nothing to keep still", () => {
    const one = initTimeline({ items: [msg("a", 10)], nextCursor: null, seq: 5 });
    // The row leaves in the poll that brings a new message…
    const together = applyPoll(one, { items: [msg("d", 40)], removed: ["a"], nextCursor: null, seq: 6 });
    expect(keysOf(together)).toEqual(["d"]);
    expect(together.pending).toEqual([]);
    // …or after new ones were held back behind "2 new messages".
    const held = applyPoll(one, { items: [msg("d", 40), msg("e", 50)], nextCursor: null, seq: 6 });
    expect(keysOf(held, "pending")).toHaveLength(2);
    const emptied = applyPoll(held, { items: [], removed: ["a"], nextCursor: null, seq: 7 });
    expect(keysOf(emptied)).toEqual(["e", "d"]);
    expect(emptied.pending).toEqual([]);
    // More changed than the answer held: the newest page is loaded instead.
    expect(applyPoll(held, { items: [], removed: ["a"], nextCursor: null, seq: 7 }, true).overflow).toBe(true);
  });

  it("leaves changes below the loaded pages to Load older", () => {
    const paged = initTimeline({ items: [msg("c", 30), msg("b", 20)], nextCursor: "cur", seq: 5 });
    const next = applyPoll(paged, { items: [msg("a", 10, { status: "dead" }), msg("d", 40)], nextCursor: null, seq: 6 });
    expect(keysOf(next, "pending")).toEqual(["d"]);
  });
});

describe("applyPoll on a big burst", () => {
  const empty = initTimeline({ items: [], nextCursor: null, seq: 5 });
  const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => msg(`n${from + i}`, from + i));

  it("puts new messages straight into an empty list, newest first: there is nothing on screen to keep still", () => {
    const next = applyPoll(empty, { items: [msg("a", 10), msg("c", 30), msg("b", 20)], nextCursor: null, seq: 8 });
    expect(keysOf(next)).toEqual(["c", "b", "a"]);
    expect(next.pending).toEqual([]);
    expect(next.overflow).toBe(false);
  });

  it("has an empty list load its newest page when more changed than a poll's answer held, rather than show the first changes", () => {
    const next = applyPoll(empty, { items: many(3), nextCursor: null, seq: 8 }, true);
    expect(next.items).toEqual([]);
    expect(next.overflow).toBe(true);
    expect(next.seq).toBe(8);
  });

  it("holds at most PENDING_LIMIT new messages, then only notes there are more; shown ones still update in place", () => {
    const start = initTimeline({ items: [msg("b", -20), msg("a", -30)], nextCursor: null, seq: 5 });
    const full = applyPoll(start, { items: many(PENDING_LIMIT), nextCursor: null, seq: 6 });
    expect(full.pending).toHaveLength(PENDING_LIMIT);
    expect(full.overflow).toBe(false);

    const over = applyPoll(full, { items: [...many(1, PENDING_LIMIT), msg("a", -30, { status: "delivered" })], nextCursor: null, seq: 7 });
    expect(over.pending).toHaveLength(PENDING_LIMIT);
    expect(over.overflow).toBe(true);
    expect(over.items[1]?.status).toBe("delivered");
    // Merging would leave out what was not held: showing them is the newest page's job.
    expect(showPending(over)).toBe(over);
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

  it("polls again from an older page read before the last poll, whose changes below the list that poll left to it", () => {
    const start = initTimeline({ items: [msg("d", 40), msg("c", 30)], nextCursor: "cur", seq: 5 });
    // The older page is read at seq 5; then b is delivered and a stops matching (seq 7), and a poll
    // skips both as below the loaded rows; then the older page lands, still showing them as at seq 5.
    const polled = applyPoll(start, { items: [msg("b", 20, { status: "delivered" })], nextCursor: null, seq: 7, removed: ["a"] });
    const older = appendOlder(polled, { items: [msg("b", 20), msg("a", 10)], nextCursor: null, seq: 5 });
    expect(older.seq).toBe(5);
    const again = timelineReducer(older, { type: "poll", since: 5, page: { items: [msg("b", 20, { status: "delivered" })], nextCursor: null, seq: 7, removed: ["a"] } });
    expect(keysOf(again)).toEqual(["d", "c", "b"]);
    expect(again.items[2]?.status).toBe("delivered");
    expect(again.pending).toEqual([]);
  });
});

describe("compareNewestFirst, through a poll", () => {
  it("places a message without a date where the server does (when first seen), not at its last change", () => {
    const undated = msg("u", 5, { date: null, updatedAt: new Date(Date.UTC(2026, 10, 20, 0, 50)).toISOString() });
    const start = initTimeline({ items: [msg("c", 30), msg("b", 20)], nextCursor: "cur", seq: 5 });
    // Its file was deleted just now: the change sorts below the loaded rows, for "Load older" to find.
    expect(applyPoll(start, { items: [undated], nextCursor: null, seq: 6 }).pending).toEqual([]);
  });
});

describe("timelineReducer", () => {
  it("drops a poll answer asked for before the newest page replaced the list, which it would roll back", () => {
    const start = initTimeline({ items: [msg("a", 10)], nextCursor: null, seq: 5 });
    const newest = timelineReducer(start, { type: "newest", page: { items: [msg("b", 20, { status: "delivered" })], nextCursor: "cur", seq: 9 } });
    // Asked from seq 5, answered at 7: b was still queued then.
    const late = timelineReducer(newest, { type: "poll", since: 5, page: { items: [msg("b", 20, { status: "queued" })], nextCursor: null, seq: 7, removed: ["b"] } });
    expect(late).toBe(newest);
    const current = timelineReducer(newest, { type: "poll", since: 9, page: { items: [msg("c", 30)], nextCursor: null, seq: 10 } });
    expect(keysOf(current, "pending")).toEqual(["c"]);
  });

  it("drops an older page loaded for a list since replaced, and takes a poll's `more` as a reason to load the newest", () => {
    const start = initTimeline({ items: [msg("c", 30)], nextCursor: "old", seq: 5 });
    const newest = timelineReducer(start, { type: "newest", page: { items: [msg("d", 40)], nextCursor: "new", seq: 9 } });
    expect(timelineReducer(newest, { type: "older", from: "old", page: { items: [msg("a", 10)], nextCursor: null, seq: 9 } })).toBe(newest);

    const empty = initTimeline({ items: [], nextCursor: null, seq: 5 });
    const behind = timelineReducer(empty, { type: "poll", since: 5, page: { items: [msg("a", 10)], nextCursor: null, seq: 6, more: true } });
    expect(behind).toMatchObject({ items: [], overflow: true, seq: 6 });
  });
});
