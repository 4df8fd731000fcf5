import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MessageDetail } from "@/lib/model";
import type { ActionDescriptor } from "@/lib/protocols/actions";
import { MessageActions } from "./message-actions";

const REQUEUE: ActionDescriptor = { id: "requeue", verb: "Requeue", input: "queue+body", bulk: true, queue: "evaluator", body: "task_id: t\n" };
const RETRY: ActionDescriptor = { id: "retry", verb: "Retry now", input: "none", bulk: true };
const DISCARD: ActionDescriptor = { id: "discard", verb: "Discard", input: "none", bulk: true };

const stuck: MessageDetail = {
  key: "evaluation_request-1", source: "ws", protocol: "ignite", messageId: "<m@x>", from: "coordinator", to: ["evaluator"], cc: [],
  type: "evaluation_request", priority: "high", threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null,
  date: null, agent: "evaluator", folder: "processed", path: ".ignite/queue/evaluator/processed/e.mime", status: "processing",
  rawStatus: "processing", stuck: true, retryCount: 0, nextRetryAt: null, problems: [], duplicate: false, deadLetterOf: null,
  preview: "", size: 10, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1, headers: [], body: "task_id: t\n", data: null, ignite: null, history: [],
  actions: [REQUEUE, RETRY, DISCARD], actionCheck: { path: ".ignite/queue/evaluator/processed/e.mime" },
};

describe("MessageActions", () => {
  it("offers each action the server lists as a button named with its verb", () => {
    const html = renderToStaticMarkup(<MessageActions message={stuck} readOnly={false} />);
    for (const verb of ["Requeue", "Edit &amp; requeue", "Retry now", "Discard"]) expect(html).toContain(`>${verb}</button>`);
    expect(html).toMatch(/<label[^>]*>Queue<\/label>/);
  });

  it("hides every action in read-only mode and says why", () => {
    const html = renderToStaticMarkup(<MessageActions message={stuck} readOnly />);
    expect(html).not.toContain("<button");
    expect(html).toContain("MAILROOM_READONLY=1");
  });

  it("renders only what the server offers, whatever the message's folder or protocol", () => {
    // The same folder and status as `stuck`: no client rule adds what the server left out.
    const restoreOnly = renderToStaticMarkup(<MessageActions message={{ ...stuck, actions: [{ id: "restore", verb: "Restore", input: "none", bulk: true }] }} readOnly={false} />);
    expect(restoreOnly).toContain(">Restore</button>");
    expect(restoreOnly).not.toContain(">Discard</button>");
    const shogun = { ...stuck, protocol: "shogun" as const, folder: "inbox", status: "unread", actions: [{ id: "mark-read" as const, verb: "Mark read", input: "none" as const, bulk: true }] };
    expect(renderToStaticMarkup(<MessageActions message={shogun} readOnly={false} />)).toContain(">Mark read</button>");
    expect(renderToStaticMarkup(<MessageActions message={{ ...stuck, actions: [] }} readOnly={false} />)).toBe("");
  });
});
