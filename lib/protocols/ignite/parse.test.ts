import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FoundFile, ParsedMessage, SourceReader } from "@/lib/protocols/types";
import { parseDeadLetterBody } from "./dead-letter";
import { igniteAdapter } from "./reader";
import { fixtureMessages, FIXTURE_ROOT } from "./test-fixture";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let reader: SourceReader;
const parsed = new Map<string, ParsedMessage>();

async function parseFound(r: SourceReader, found: FoundFile): Promise<ParsedMessage> {
  const placement = r.place(found.relPath);
  if (!placement) throw new Error(`not placed: ${found.relPath}`);
  const bytes = found.kind === "file" ? fs.readFileSync(path.join(r.root, found.relPath)) : null;
  return r.parse({ relPath: found.relPath, placement, bytes, found });
}

beforeAll(async () => {
  const opened = await igniteAdapter.open(FIXTURE_ROOT);
  if (!opened) throw new Error("fixture not detected");
  reader = opened;
  for (const found of await reader.list()) parsed.set(found.relPath.replace(/^\.ignite\//, ""), await parseFound(reader, found));
});

function get(rel: string): ParsedMessage {
  const p = parsed.get(rel);
  if (!p) throw new Error(`missing ${rel}`);
  return p;
}

describe("parse() on the fixture", () => {
  it("lists exactly the fixture's message files", () => {
    expect([...parsed.keys()].sort()).toEqual(fixtureMessages());
  });

  it("gives every valid message an ISO UTC date, its Message-ID and no problems", () => {
    for (const [rel, p] of parsed) {
      if (rel.includes("broken_") || rel.includes("empty_")) continue;
      expect(p.date, rel).toMatch(ISO_UTC);
      expect(p.messageId, rel).toMatch(/^<.+@ignite\.local>$/);
      expect(p.problems, rel).toEqual([]);
      expect(p.status, rel).not.toBe("invalid");
    }
  });

  it("maps folders and X-IGNITE-Status to statuses", () => {
    const statuses = Object.fromEntries([...parsed].map(([rel, p]) => [rel, p.status]));
    expect(statuses).toMatchObject({
      "queue/evaluator/processed/evaluation_request_1795136092377001.mime": "processing",
      "queue/ignitian_3/task_assignment_1795136081090233.mime": "retrying",
      "queue/leader/escalation_1795136385.mime": "queued",
      "queue/leader/progress_update_1795136392801166.mime": "queued",
      "queue/leader/processed/github_event_1795133882118342.mime": "delivered",
      "queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime": "dead",
      "queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime": "dead",
      "queue/architect/broken_1795300000000001.mime": "invalid",
      "queue/architect/processed/empty_1795300000000002.mime": "invalid",
    });
  });

  it("reads the retrying message's retry headers", () => {
    const p = get("queue/ignitian_3/task_assignment_1795136081090233.mime");
    expect(p).toMatchObject({
      rawStatus: "retrying", retryCount: 1, nextRetryAt: "2026-11-20T00:59:49.000Z", date: "2026-11-20T00:54:41.000Z",
      type: "task_assignment", priority: "high", threadId: "thr_readme_42", repository: "owner/repo", issue: "42",
      from: "coordinator", to: ["ignitian_3"], cc: [], correlationId: null, deadLetter: null,
      inReplyTo: "<179513500455.39158.2235934012667247672@ignite.local>",
    });
    expect(p.body).toContain('task_id: "task_003"');
  });

  it("keeps the raw status and nulls what a file does not say", () => {
    const evaluation = get("queue/evaluator/processed/evaluation_request_1795136092377001.mime");
    expect(evaluation).toMatchObject({ rawStatus: "processing", retryCount: 0, nextRetryAt: null });
    const pending = get("queue/leader/evaluation_result_1795136390012877.mime");
    expect(pending).toMatchObject({ rawStatus: null, status: "queued", threadId: "thr_readme_42" });
    const event = get("queue/leader/processed/github_event_1795133882118342.mime");
    expect(event).toMatchObject({ threadId: null, inReplyTo: null, issue: "43" });
  });

  it("fills deadLetter from a dead letter's body", () => {
    const p = get("queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime");
    // Its retries are its original's (failure_info), as /dead-letters shows them.
    expect(p).toMatchObject({ rawStatus: "dead_letter", type: "dead_letter", priority: "critical", to: ["leader"], retryCount: 3 });
    expect(p.deadLetter).toMatchObject({
      originalFile: "task_assignment_1795135151004518.mime",
      originalMessageId: "<179513515104.39292.12328985817850960367@ignite.local>",
      originalAgent: "ignitian_2",
      retryCount: 3,
      lastError: "timeout after 3 retries",
      movedAt: "2026-11-20T00:59:45.000Z",
    });
    expect(p.deadLetter?.originalText).toMatch(/^MIME-Version: 1\.0\nMessage-ID: <179513515104\./);
    expect(p.deadLetter?.originalText).toContain('\n\ntask_id: "task_002"\n');

    const other = get("queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime");
    expect(other.deadLetter).toMatchObject({ originalAgent: "architect", originalFile: "architecture_request_1795133781377120.mime" });
  });

  it("marks the malformed files invalid with a reason", () => {
    const broken = get("queue/architect/broken_1795300000000001.mime");
    expect(broken.problems).toEqual(["No header block: the file has no empty line separating headers from the body."]);
    expect(broken.body).toContain("cut short by a crashed writer");
    const empty = get("queue/architect/processed/empty_1795300000000002.mime");
    expect(empty).toMatchObject({ status: "invalid", problems: ["The file is empty (0 bytes)."], messageId: null, body: "" });
  });

  it("describes a message: headers in file order, body, YAML data", async () => {
    const bytes = fs.readFileSync(path.join(FIXTURE_ROOT, ".ignite/queue/ignitian_3/task_assignment_1795136081090233.mime"));
    const d = await igniteAdapter.describe(bytes);
    expect(d.headers[0]).toEqual(["MIME-Version", "1.0"]);
    expect(d.headers.at(-1)).toEqual(["X-IGNITE-Next-Retry-After", "2026-11-20T09:59:49+09:00"]);
    expect(d.data).toMatchObject({ task_id: "task_003", estimated_time: 600, deliverables: ["README.md"] });
    expect(d.body).toBe(d.ignite?.body);
  });

  it("lists the agents, dead_letter excluded", async () => {
    expect(await reader.agents()).toEqual([
      "architect", "coordinator", "evaluator", "ignitian_1", "ignitian_2", "ignitian_3", "innovator", "leader", "strategist",
    ]);
  });
});

describe("a dead letter's body that does not parse", () => {
  // Its fields are then read line by line, without a parser. A line of spaces ending in a quote
  // inside the value (or a \r) made that backtrack cubically: 4,000 spaces took 42 s. Outcomes, not times.
  it("is read line by line in one pass, even with a line of 200,000 spaces", () => {
    const spaces = " ".repeat(200_000);
    expect(parseDeadLetterBody(`failure_info: [\noriginal_file:${spaces}x"y\n`).originalFile).toBeNull();
    expect(parseDeadLetterBody(`failure_info: [\noriginal_file:${spaces}x"y\r\noriginal_file: "task_1.mime"${spaces}\n`).originalFile).toBe("task_1.mime");
  });

  it("takes the first usable `key: value` line, quotes off, as before", () => {
    const body = 'failure_info: [\noriginal_file: "a"b"\noriginal_file:  "task_2.mime"  \nretry_count: 3\n';
    expect(parseDeadLetterBody(body).originalFile).toBe("task_2.mime");
    expect(parseDeadLetterBody("failure_info: [\noriginal_file:\n").originalFile).toBeNull();
  });
});
