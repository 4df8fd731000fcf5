import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import type { MessageDetail } from "@/lib/model";
import { MAX_FILE_BYTES } from "@/lib/protocols/types";
import { BodyView } from "./body-view";

const message: MessageDetail = {
  key: "big_report-1", source: "ws", protocol: "ignite", messageId: "<m@x>", from: "coordinator", to: ["leader"], cc: [],
  type: "big_report", priority: "normal", threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null,
  date: null, agent: "leader", folder: "queue", path: ".ignite/queue/leader/big_report_1.mime", status: "queued",
  rawStatus: null, stuck: false, retryCount: 0, nextRetryAt: null, problems: [], duplicate: false,
  deadLetterOf: null, preview: "", size: 10, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1, headers: [], body: "", data: null,
  ignite: null, history: [], actions: [], actionCheck: {},
};

it("says an empty body is empty, but that a file over 8 MiB was read (or kept) by its headers only", () => {
  expect(renderToStaticMarkup(<BodyView message={message} />)).toContain("The body is empty.");
  const big = { ...message, size: MAX_FILE_BYTES + 1 };
  expect(renderToStaticMarkup(<BodyView message={big} />)).toContain("download it to read the body");
  expect(renderToStaticMarkup(<BodyView message={{ ...big, path: null, headers: [["From", "coordinator"]] }} />)).toContain("the journal kept only its headers");
  expect(renderToStaticMarkup(<BodyView message={{ ...big, path: null }} />)).toContain("the journal kept none of its content");
});
