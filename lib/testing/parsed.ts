// Test builders for journal tests: a parsed message with sensible defaults.
import type { FileRecord } from "@/lib/journal/writer";
import type { ParsedMessage } from "@/lib/protocols/types";

export function parsed(over: Partial<ParsedMessage> = {}): ParsedMessage {
  return {
    messageId: "<1.1.1@ignite.local>",
    from: "leader",
    to: ["strategist"],
    cc: [],
    type: "strategy_request",
    priority: "normal",
    threadId: null,
    inReplyTo: null,
    correlationId: null,
    repository: null,
    issue: null,
    date: "2026-11-20T00:00:00.000Z",
    rawStatus: null,
    status: "queued",
    retryCount: 0,
    nextRetryAt: null,
    body: "goal: test",
    problems: [],
    deadLetter: null,
    ...over,
  };
}

export function fileRecord(relPath: string | null, over: Partial<ParsedMessage> = {}, stat = { mtimeMs: 1_000, size: 10, ino: 1 }): FileRecord {
  const parts = (relPath ?? "queue/strategist/x.mime").split("/");
  const processed = parts.includes("processed");
  const agent = parts[parts.indexOf("queue") + 1] ?? "strategist";
  return {
    source: "ws-ignite",
    protocol: "ignite",
    relPath,
    originPath: relPath ?? "queue/strategist/x.mime",
    placement: { agent, folder: agent === "dead_letter" ? "dead_letter" : processed ? "processed" : "queue" },
    found: stat,
    parsed: parsed(over),
    raw: Buffer.from("raw"),
  };
}
