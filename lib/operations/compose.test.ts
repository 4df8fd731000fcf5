import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMessage, listMessages } from "@/lib/journal";
import { parseReference } from "@/lib/protocols/ignite";
import { ignite } from "@/lib/protocols/fixtures";
import { ApiError } from "@/lib/server/errors";
import { fixturePath } from "@/lib/testing/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { compose, ComposeFieldsError, type ComposedItem, type PreviewItem } from "./compose";

const { rfc2822Date } = ignite;

let w: IngestedWorkspace;
beforeAll(async () => {
  w = await openIngestedWorkspace();
});
afterAll(() => w.close());

const ORIGIN = "http://127.0.0.1:3000";
const BODY = 'task_id: "task_009"\ntitle: "テスト"\ninstructions: |\n  1. 読む\n  2. 書く'; // no trailing newline
const base = {
  from: "coordinator", to: ["ignitian_1"], type: "task_assignment", priority: "high", body: BODY,
  threadId: "thr_compose_1", inReplyTo: "<179513500455.39158.2235934012667247672@ignite.local>", repository: "owner/repo", issue: 42,
};
const abs = (rel: string) => path.join(w.ws, ...rel.split("/"));
const headerNames = (text: string) => text.split("\n\n")[0]!.split("\n").map((l) => l.slice(0, l.indexOf(":")));

async function send(input: object): Promise<ComposedItem[]> {
  const result = await compose(input, ORIGIN);
  if (result.dryRun) throw new Error("expected a real send");
  return result.items;
}

describe("compose writes what the IGNITE tools write", () => {
  it("lays out the file byte for byte as the builder does, mode 0600, with a {type}_{usec}.mime name", async () => {
    const before = Date.now();
    const [item] = await send(base);
    expect(item!.path).toMatch(/^\.ignite\/queue\/ignitian_1\/task_assignment_\d{16}\.mime$/);
    const micros = Number(path.basename(item!.path).match(/_(\d{16})\.mime$/)![1]);
    expect(micros / 1000).toBeGreaterThanOrEqual(before - 1);
    const text = fs.readFileSync(abs(item!.path), "utf8");
    expect(fs.statSync(abs(item!.path)).mode & 0o777).toBe(0o600);

    const id = text.match(/^Message-ID: (<(\d+)\.(\d+)\.(\d+)@ignite\.local>)$/m)!;
    expect(Number(id[2])).toBeGreaterThanOrEqual(Math.floor(before / 10));
    expect(Number(id[3])).toBe(process.pid);
    const date = text.match(/^Date: (.+)$/m)![1]!;
    expect(date).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}$/);
    expect(date).toBe(rfc2822Date(new Date(Date.parse(date)))); // the server's own offset
    expect(text).toBe(
      ["MIME-Version: 1.0", `Message-ID: ${id[1]}`, "From: coordinator", "To: ignitian_1", `Date: ${date}`,
        "X-IGNITE-Type: task_assignment", "X-IGNITE-Priority: high", "X-IGNITE-Thread-ID: thr_compose_1",
        `In-Reply-To: ${base.inReplyTo}`, "X-IGNITE-Repository: owner/repo", "X-IGNITE-Issue: 42",
        "Content-Type: text/x-yaml; charset=utf-8", "Content-Transfer-Encoding: 8bit"].join("\n") + "\n\n" + BODY,
    );
  });

  it("uses the reference layout: the fixture's task_assignment has the same headers in the same order", async () => {
    const [item] = await send(base);
    const reference = fs.readFileSync(fixturePath("ignite", "workspace", ".ignite/queue/ignitian_1/processed/task_assignment_1795135150230771.mime"), "utf8");
    const upstream = headerNames(reference).filter((n) => !["X-IGNITE-Status", "X-IGNITE-Processed-At"].includes(n));
    expect(upstream).toContain("X-IGNITE-Thread-ID");
    expect(headerNames(fs.readFileSync(abs(item!.path), "utf8"))).toEqual(upstream);
  });

  it("is read by the tools' own parser to exactly the fields that were sent", async () => {
    const [item] = await send({ ...base, cc: ["leader", "evaluator"] });
    const text = fs.readFileSync(abs(item!.path), "utf8");
    expect(parseReference(text)).toEqual({
      message_id: expect.stringMatching(/^<\d+\.\d+\.\d+@ignite\.local>$/), from: "coordinator", to: ["ignitian_1"], cc: ["leader", "evaluator"],
      date: expect.any(String), in_reply_to: base.inReplyTo, type: "task_assignment", priority: "high", thread_id: "thr_compose_1",
      repository: "owner/repo", issue: "42", status: "", content_type: "text/x-yaml; charset=utf-8", body: BODY,
    });
  });

  it("leaves optional headers out and defaults the priority to normal", async () => {
    const [item] = await send({ from: "user", to: ["leader"], type: "user_goal", body: "goal: x\n" });
    const text = fs.readFileSync(abs(item!.path), "utf8");
    expect(headerNames(text)).toEqual(["MIME-Version", "Message-ID", "From", "To", "Date", "X-IGNITE-Type", "X-IGNITE-Priority", "Content-Type", "Content-Transfer-Encoding"]);
    expect(text).toContain("X-IGNITE-Priority: normal\n");
    expect(text.endsWith("\n\ngoal: x\n")).toBe(true);
  });

  it("writes one file per recipient, each its own message, journaled at once with a 'composed' event", async () => {
    const items = await send({ ...base, to: ["ignitian_2", "ignitian_3"] });
    expect(items.map((i) => i.path.split("/")[2])).toEqual(["ignitian_2", "ignitian_3"]);
    const parsed = items.map((i) => parseReference(fs.readFileSync(abs(i.path), "utf8")));
    expect(parsed.map((p) => p.to)).toEqual([["ignitian_2", "ignitian_3"], ["ignitian_2", "ignitian_3"]]);
    expect(parsed[0]!.message_id).not.toBe(parsed[1]!.message_id);
    for (const item of items) {
      const m = await getMessage(item.key!);
      expect(m).toMatchObject({ path: item.path, status: "queued", threadId: "thr_compose_1", duplicate: false });
      expect(m!.history.map((h) => h.kind)).toContain("composed");
      expect(m!.history.find((h) => h.kind === "composed")!.detail).toContain(ORIGIN);
    }
    expect(listMessages({ q: "thread:thr_compose_1 agent:ignitian_2" }).items.map((m) => m.key)).toContain(items[0]!.key);
  });

  it("gives quick successive sends distinct files", async () => {
    const items = (await Promise.all([1, 2, 3].map(() => send({ ...base, to: ["innovator"] })))).flat();
    expect(new Set(items.map((i) => i.path)).size).toBe(3);
    expect(new Set(items.map((i) => i.key)).size).toBe(3);
  });

  it("creates a missing queue folder only when asked", async () => {
    const [item] = await send({ ...base, to: ["ignitian_9"], createQueues: true });
    expect(item!.path).toMatch(/^\.ignite\/queue\/ignitian_9\/task_assignment_\d{16}\.mime$/);
    expect(fs.statSync(abs(".ignite/queue/ignitian_9")).isDirectory()).toBe(true);
    expect(item!.key).toBeTruthy();
  });

  it("previews with dryRun: the exact files, nothing written", async () => {
    const before = w.tree();
    const result = await compose({ ...base, to: ["ignitian_1", "ignitian_8"], createQueues: true, dryRun: true }, ORIGIN);
    expect(result.dryRun).toBe(true);
    const items = result.items as PreviewItem[];
    expect(items.map((i) => [i.path.split("/")[2], i.newQueue])).toEqual([["ignitian_1", false], ["ignitian_8", true]]);
    expect(parseReference(items[0]!.content)).toMatchObject({ from: "coordinator", to: ["ignitian_1", "ignitian_8"], body: BODY });
    expect(w.tree()).toEqual(before);
  });

  it("is a 403 in read-only mode", async () => {
    process.env.MAILROOM_READONLY = "1";
    try {
      await expect(compose(base, ORIGIN)).rejects.toMatchObject({ status: 403, code: "read_only" });
    } finally {
      delete process.env.MAILROOM_READONLY;
    }
  });
});

describe("bad input is a 400 naming each bad field, and nothing is written", () => {
  const cases: [string, object, string, RegExp][] = [
    ["CR/LF in From", { from: "leader\r\nX-IGNITE-Status: done" }, "from", /carriage return/],
    ["LF in the thread id", { threadId: "thr_1\nX-Evil: 1" }, "threadId", /line feed/],
    ["NUL in In-Reply-To", { inReplyTo: "<a@b>\0" }, "inReplyTo", /NUL/],
    ["a Unicode line separator in Repository", { repository: "owner/repo\u2028X: 1" }, "repository", /U\+2028/],
    ["LF in Issue", { issue: "42\n" }, "issue", /line feed/],
    ["CR in a recipient", { to: ["ignitian_1\r"] }, "to", /carriage return/],
    ["an empty recipient list", { to: [] }, "to", /at least one recipient/],
    ["no recipient list", { to: undefined }, "to", /is required/],
    ["'..' in an agent", { to: ["../leader"] }, "to", /must not contain "\/" or "\.\."/],
    ["'/' in an agent", { to: ["leader/processed"] }, "to", /must not contain "\/" or "\.\."/],
    ["'..' inside a name", { to: ["a..b"] }, "to", /"\.\."/],
    ["an agent with no queue folder", { to: ["nobody"] }, "to", /"nobody" has no queue folder \(\.ignite\/queue\/nobody\)/],
    ["the dead-letter queue as an agent", { to: ["dead_letter"] }, "to", /dead-letter queue/],
    ["a recipient twice", { to: ["leader", "leader"] }, "to", /listed twice/],
    ["a comma in Cc", { cc: ["leader,evaluator"] }, "cc", /not a valid name/],
    ["a type outside the name pattern", { type: "task assignment" }, "type", /not a valid name/],
    ["a type with a slash", { type: "../../x" }, "type", /must not contain/],
    ["a sender outside the name pattern", { from: "-coordinator" }, "from", /not a valid name/],
    ["a priority with a space", { priority: "very high" }, "priority", /not a valid name/],
    ["invalid YAML", { body: "task_id: [1, 2\ntitle: x" }, "body", /not valid YAML \(line \d+, column \d+\)/],
    ["CR in the body", { body: "a: 1\r\nb: 2" }, "body", /LF line endings/],
    ["U+2028 in the body (a line break to PyYAML)", { body: 'a: "1\u2028b"' }, "body", /LF line endings \(it contains U\+2028/],
    ["a body that is not text", { body: 12 }, "body", /must be YAML text/],
    ["an unknown field", { thread_id: "thr_1" }, "thread_id", /not a field/],
    ["an unknown source", { source: "elsewhere" }, "source", /"elsewhere" is not one of this Mailroom's IGNITE v3 workspaces/],
  ];

  it.each(cases)("%s", async (_label, change, field, message) => {
    const before = w.tree();
    const err = await compose({ ...base, ...change }, ORIGIN).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ComposeFieldsError);
    const { status, fields, message: text } = err as ComposeFieldsError;
    expect(status).toBe(400);
    expect(Object.keys(fields)).toEqual([field]);
    expect(fields[field]).toMatch(message);
    expect(text).toContain(`${field}: `);
    expect(w.tree()).toEqual(before);
  });

  it("names every bad field at once", async () => {
    const err = (await compose({ ...base, from: "a\nb", to: ["ok_agent_missing", "x/y"], type: "", body: "a: [" }, ORIGIN).catch((e: unknown) => e)) as ComposeFieldsError;
    expect(Object.keys(err.fields).sort()).toEqual(["body", "from", "to", "type"]);
    expect(err.message).toMatch(/^Nothing was written\. from: .+; to: .+; type: is required; body: .+line 1, column/);
  });

  it("refuses a request that is not an object", async () => {
    expect(await compose(["x"], ORIGIN).catch((e: unknown) => e)).toMatchObject({ status: 400, fields: { request: expect.any(String) } });
  });

  it("is a 413 for a body over 1 MiB", async () => {
    const before = w.tree();
    const err = await compose({ ...base, body: `a: "${"x".repeat(1024 * 1024)}"` }, ORIGIN).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 413, code: "body_too_large", message: expect.stringMatching(/^body: /) });
    expect(w.tree()).toEqual(before);
  });
});
