import { expect, it } from "vitest";
import { renderWithCatalogs } from "@/lib/testing/render";
import type { MessageDetail } from "@/lib/model";
import { MessageHeader } from "./message-header";

const retrying: MessageDetail = {
  key: "task_assignment-1", source: "ws", protocol: "ignite", messageId: "<m@x>", from: "leader", to: ["ignitian_1"], cc: [],
  type: "task_assignment", priority: "normal", threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null,
  date: null, agent: "ignitian_1", folder: "queue", path: ".ignite/queue/ignitian_1/t.mime", status: "retrying",
  rawStatus: "retrying", stuck: false, retryCount: 3, nextRetryAt: "2026-11-20T00:05:00.000Z", problems: [], duplicate: false,
  deadLetterOf: null, preview: "", size: 10, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1, headers: [], body: "", data: null,
  ignite: null, history: [], actions: [], actionCheck: {},
};

it("shows the backoff the file asks for only while the message still waits to be retried", () => {
  expect(renderWithCatalogs(<MessageHeader message={retrying} />)).toContain(" · the file asks for a backoff until ");
  // Dead-lettered: its file's header keeps the last plan, but there is no next attempt.
  const dead = renderWithCatalogs(<MessageHeader message={{ ...retrying, status: "dead", folder: "processed", path: null }} />);
  expect(dead).not.toContain("backoff");
  expect(dead).toMatch(/Retries.*3/);
});

it("names the protocol the message speaks when the journal holds several, and only then", () => {
  const v2 = { ...retrying, protocol: "ignite-yaml" as const };
  expect(renderWithCatalogs(<MessageHeader message={v2} showProtocol />)).toMatch(/<span class="sr-only">protocol <\/span>IGNITE v2 \(YAML\)<\/span>/);
  expect(renderWithCatalogs(<MessageHeader message={v2} />)).not.toContain("IGNITE v2");
  // Nor is its id beside the size ("10 bytes · ignite-yaml" read as part of the size).
  expect(renderWithCatalogs(<MessageHeader message={v2} />)).not.toContain("ignite-yaml");
});

it("links a dead message to the dead letter that holds it, and a dead letter to its message", () => {
  const dead = { ...retrying, status: "dead" as const, folder: "processed" as const, path: null };
  expect(renderWithCatalogs(<MessageHeader message={{ ...dead, heldBy: "dlq-1" }} />)).toMatch(/why it failed is in <a [^>]*href="\/messages\/dlq-1"[^>]*>its dead letter<\/a>/);
  expect(renderWithCatalogs(<MessageHeader message={dead} />)).not.toContain("its dead letter");
  expect(renderWithCatalogs(<MessageHeader message={{ ...retrying, deadLetterOf: "task_assignment-1" }} />)).toContain("the original message");
});
