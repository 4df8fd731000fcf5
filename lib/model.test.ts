import { describe, expect, it } from "vitest";
import { messageSummarySchema } from "./model";
import { threadSummarySchema } from "./threads/model";

const summary = {
  key: "k1", source: "ws", protocol: "workflow", messageId: null, from: null, to: [], cc: [], type: null, priority: null,
  threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null, date: null, agent: "a",
  folder: "channel", path: null, status: "unacked", rawStatus: null, stuck: false, retryCount: 0, nextRetryAt: null,
  problems: [], duplicate: false, deadLetterOf: null, preview: "", size: 0, updatedAt: "2026-11-26T00:00:00.000Z", sortMs: 0, seq: 1,
};

describe("status and folder words", () => {
  it("takes any protocol's own words, and refuses what is no word", () => {
    expect(messageSummarySchema.parse(summary).status).toBe("unacked");
    expect(messageSummarySchema.parse({ ...summary, folder: "tasks", status: "in_progress" }).folder).toBe("tasks");
    expect(() => messageSummarySchema.parse({ ...summary, status: "In Progress" })).toThrow();
    expect(() => messageSummarySchema.parse({ ...summary, folder: "x".repeat(33) })).toThrow();
  });

  it("counts a thread's messages by any status word", () => {
    const thread = { id: "t", kind: "header", count: 3, agents: [], protocols: ["kicklang"], first: null, last: null, stuck: 0 };
    expect(threadSummarySchema.parse({ ...thread, statuses: { unanswered: 2, gone: 1 } }).statuses).toEqual({ unanswered: 2, gone: 1 });
    expect(() => threadSummarySchema.parse({ ...thread, statuses: { "no word": 1 } })).toThrow();
  });
});
