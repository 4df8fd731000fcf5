import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MessageDetail } from "@/lib/model";
import { MessageActions } from "./message-actions";

const stuck: MessageDetail = {
  key: "evaluation_request-1", source: "ws", protocol: "ignite", messageId: "<m@x>", from: "coordinator", to: ["evaluator"], cc: [],
  type: "evaluation_request", priority: "high", threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null,
  date: null, agent: "evaluator", folder: "processed", path: ".ignite/queue/evaluator/processed/e.mime", status: "processing",
  rawStatus: "processing", stuck: true, retryCount: 0, nextRetryAt: null, problems: [], duplicate: false, deadLetterOf: null,
  preview: "", size: 10, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1, headers: [], body: "task_id: t\n", data: null, ignite: null, history: [],
};

describe("MessageActions", () => {
  it("offers each action as a button named with its verb", () => {
    const html = renderToStaticMarkup(<MessageActions message={stuck} readOnly={false} />);
    for (const verb of ["Requeue", "Edit &amp; requeue", "Retry now", "Discard"]) expect(html).toContain(`>${verb}</button>`);
    expect(html).toMatch(/<label[^>]*>Queue<\/label>/);
  });

  it("hides every action in read-only mode and says why", () => {
    const html = renderToStaticMarkup(<MessageActions message={stuck} readOnly />);
    expect(html).not.toContain("<button");
    expect(html).toContain("MAILROOM_READONLY=1");
  });

  it("offers Restore only for a discarded message", () => {
    const html = renderToStaticMarkup(<MessageActions message={{ ...stuck, folder: "archive", status: "discarded" }} readOnly={false} />);
    expect(html).toContain(">Restore</button>");
    expect(html).not.toContain(">Discard</button>");
  });
});
