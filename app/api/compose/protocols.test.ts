// POST /api/compose for the wave-2 protocols, called as the route handler on temp copies of each
// protocol's fixture with ingest running: what is written is read back by the protocol's own
// reader and found in the journal; dry runs and bad input write nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMessage, listMessages } from "@/lib/journal";
import { composeFormOf } from "@/lib/protocols/compose-forms";
import type { Entry } from "@/lib/protocols/entries";
import { read as readIgniteYaml } from "@/lib/protocols/ignite-yaml";
import { read as readKicklang } from "@/lib/protocols/kicklang";
import { read as readShogun } from "@/lib/protocols/shogun";
import { read as readWorkflow } from "@/lib/protocols/workflow";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { POST } from "./route";

let w: IngestedWorkspace;
beforeAll(async () => {
  w = await openIngestedWorkspace(["ignite-yaml", "shogun", "workflow", "kicklang"]);
});
afterAll(() => w.close());

const ORIGIN = "http://127.0.0.1:3000";
const WORKFLOW = "orchestrate_20260125_143000_a1b2c3d4";
type Answer = { items?: { key: string | null; path: string; content?: string; warning?: string | null }[]; error?: { code: string; message: string; fields?: Record<string, string> } };

async function post(body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await POST(new Request("http://127.0.0.1:3000/api/compose", {
    method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, host: "127.0.0.1:3000" }, body: JSON.stringify(body),
  }));
  return { status: res.status, body: (await res.json()) as Answer };
}

const rootOf = (fixture: string) => w.roots.find((r) => path.basename(r) === fixture) ?? "";
const bytesAt = (fixture: string, rel: string) => new Uint8Array(fs.readFileSync(path.join(rootOf(fixture), rel)));

/** Sent: 201 with one item whose key the journal knows; the journal's message, and the entries the protocol's reader finds in the file. */
async function sent(body: unknown, fixture: string, read: (rel: string, bytes: Uint8Array) => { entries: Entry[] }) {
  const res = await post(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [item] = res.body.items ?? [];
  expect(item?.key).toMatch(/^[A-Za-z0-9_-]+$/);
  const message = await getMessage(item?.key ?? "");
  return { item: item!, message: message!, entries: read(item!.path, bytesAt(fixture, item!.path)).entries };
}

/** Every file of every root and its bytes: appends and replaces change no file name. */
function snapshot(): Map<string, string> {
  return new Map(w.tree().map((rel) => [rel, fs.readFileSync(path.join(path.dirname(w.ws), rel), "latin1")]));
}

/** Refused: the status, and nothing on disk changed. */
async function refused(body: unknown, status: number): Promise<Answer["error"]> {
  const before = snapshot();
  const res = await post(body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(snapshot()).toEqual(before);
  return res.body.error;
}

describe("shogun", () => {
  const send = { source: "shogun-shogun", to: "karo", from: "ashigaru1", type: "report_received", content: "任務完了。\n報告を確認されたし。" };

  it("sends into the recipient's inbox: read back as an unread message, journaled, with the send in its history", async () => {
    const { item, message, entries } = await sent(send, "shogun", readShogun);
    expect(item.path).toBe("queue/inbox/karo.yaml");
    const mine = entries.find((e) => e.messageId === message.messageId);
    expect(mine).toMatchObject({ from: "ashigaru1", type: "report_received", body: "任務完了。\n報告を確認されたし。", status: "unread" });
    expect(message.messageId).toMatch(/^msg_\d{8}_\d{6}_[0-9a-f]{8}$/);
    expect(message.history.some((h) => h.kind === "composed")).toBe(true);
  });

  it("answers a dry run with the whole new inbox and writes nothing", async () => {
    const before = snapshot();
    const res = await post({ ...send, dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.items?.[0]).toMatchObject({ path: "queue/inbox/karo.yaml", warning: null, content: expect.stringMatching(/^messages:\n/) });
    expect(res.body.items?.[0]?.content).toContain("from: ashigaru1");
    expect(snapshot()).toEqual(before);
  });

  it("needs the warning confirmed to write to the shogun's inbox, then says so in the history", async () => {
    const error = await refused({ ...send, to: "shogun", from: "karo" }, 409);
    expect(error).toMatchObject({ code: "unconfirmed_warning", message: expect.stringMatching(/shogun's inbox/) });
    const { message } = await sent({ ...send, to: "shogun", from: "karo", confirmWarnings: true }, "shogun", readShogun);
    expect(message.history.find((h) => h.kind === "warning confirmed")?.detail).toMatch(/shogun's inbox.*confirmed/);
  });

  it("asks before it makes an inbox no agent has yet (a typo in To)", async () => {
    const typo = { ...send, to: "karoo" };
    const dry = await post({ ...typo, dryRun: true });
    expect(dry.body.items?.[0]?.warning).toBe("queue/inbox/karoo.yaml does not exist yet: sending makes a new inbox for karoo. No agent reads it unless one uses that name; check it.");
    expect((await refused(typo, 409))?.code).toBe("unconfirmed_warning");
    const { item } = await sent({ ...typo, confirmWarnings: true }, "shogun", readShogun);
    expect(item.path).toBe("queue/inbox/karoo.yaml");
  });

  it.each([
    ["from", { from: "a\r\nb" }, /carriage return/],
    ["to", { to: "../karo" }, /must not contain "\/" or "\.\."/],
    ["content", { content: "x".repeat(1024 * 1024 + 1) }, /limit is 1 MiB/],
    ["content", { content: "a\0b" }, /NUL/],
    ["from", { from: "karo" }, /recipient/],
    ["body", { body: "the IGNITE name for content" }, /not a field of this request/],
  ])("is a 400 naming %s, and writes nothing", async (field, patch, why) => {
    const error = await refused({ ...send, ...patch }, 400);
    expect(error?.fields?.[field]).toMatch(why);
    expect(error?.message).toContain(`${field}: `);
  });
});

describe("workflow", () => {
  const send = { source: "workflow-workflow", workflow: WORKFLOW, to: "agent_security", from: "orchestrator", type: "task_assign", payload: '{"task_id":"task_009","description":"Audit the login"}' };

  it("appends one JSON line to the agent's channel, with requires_ack as the type sets it", async () => {
    const { item, message, entries } = await sent(send, "workflow", readWorkflow);
    expect(item.path).toBe(`.claude/workflow/${WORKFLOW}/channel/agents/agent_security.jsonl`);
    expect(entries.find((e) => e.messageId === message.messageId)?.data).toMatchObject({ to: "agent_security", type: "task_assign", payload: { task_id: "task_009" }, requires_ack: true });
    expect(message.history.some((h) => h.kind === "composed")).toBe(true);
  });

  it.each([
    ["orchestrator", "agent_security", "progress_update", "orchestrator.jsonl", false],
    ["broadcast", "orchestrator", "broadcast", "broadcast.jsonl", false],
  ])("sends to %s in its own file", async (to, from, type, file, ack) => {
    const { item, message, entries } = await sent({ ...send, to, from, type, payload: "{}" }, "workflow", readWorkflow);
    expect(item.path).toBe(`.claude/workflow/${WORKFLOW}/channel/${file}`);
    expect(entries.find((e) => e.messageId === message.messageId)?.data).toMatchObject({ from, to, type, requires_ack: ack });
  });

  it("answers a dry run with the exact line and writes nothing", async () => {
    const before = snapshot();
    const res = await post({ ...send, dryRun: true });
    expect(res.status).toBe(200);
    const line = res.body.items?.[0]?.content ?? "";
    expect(line.endsWith("}\n") && line.split("\n").length === 2).toBe(true);
    expect(JSON.parse(line)).toMatchObject({ from: "orchestrator", requires_ack: true });
    expect(snapshot()).toEqual(before);
  });

  it.each([
    ["payload", { payload: "{not json" }, /not valid JSON/],
    ["payload", { payload: "[1,2]" }, /JSON object/],
    ["workflow", { workflow: "no_such_workflow" }, /no workflow no_such_workflow/],
    ["workflow", { workflow: "../x" }, /must not contain/],
    ["type", { type: "task\nassign" }, /line feed/],
  ])("is a 400 naming %s, and writes nothing", async (field, patch, why) => {
    expect((await refused({ ...send, ...patch }, 400))?.fields?.[field]).toMatch(why);
  });
});

describe("KickLang", () => {
  const send = { source: "kicklang-kicklang", sender: "WePlan", receiver: "Orchestrator", type: "Info", channel: "⫻report/status", content: "⫻report/status:task_003/003\nReviewed", correlationId: "d130c0ae-e8ef-4937-9851-2321c99322a5" };

  it("appends one envelope to the channel's file, keeping the correlation id", async () => {
    const { item, message, entries } = await sent(send, "kicklang", readKicklang);
    expect(item.path).toBe(".kicklang/channels/report/status.jsonl");
    expect(entries.find((e) => e.messageId === message.messageId)?.data).toMatchObject({ sender: "WePlan", receiver: "Orchestrator", correlation_id: send.correlationId, channel: "⫻report/status" });
    expect(message.correlationId).toBe(send.correlationId);
  });

  it("needs the role rule confirmed on a command channel, and records the confirmation", async () => {
    const command = { ...send, type: "Command", channel: "⫻command/dispatch", content: "⫻command/dispatch:task/009\nGo", correlationId: undefined };
    const dry = await post({ ...command, dryRun: true });
    expect(dry.body.items?.[0]?.warning).toMatch(/Only the Orchestrator sends on ⫻command\//);
    expect((await refused(command, 409))?.code).toBe("unconfirmed_warning");
    const { message, entries } = await sent({ ...command, confirmWarnings: true }, "kicklang", readKicklang);
    expect(entries.find((e) => e.messageId === message.messageId)?.data).toMatchObject({ sender: "WePlan", confirmed_rules: ["role-authorization"] });
    expect(message.history.find((h) => h.kind === "warning confirmed")?.detail).toMatch(/Only the Orchestrator/);
  });

  it("asks before it starts a channel no envelope was sent on yet", async () => {
    const dry = await post({ ...send, channel: "⫻report/typo", content: "⫻report/typo:task_003/004\nx", dryRun: true });
    expect(dry.body.items?.[0]?.warning).toMatch(/^\.kicklang\/channels\/report\/typo\.jsonl does not exist yet: sending makes a new channel, ⫻report\/typo\./);
  });

  it("lets the Orchestrator send on a command channel without a warning", async () => {
    const res = await post({ ...send, sender: "Orchestrator", receiver: "WePlan", type: "Command", channel: "⫻command/dispatch", content: "⫻command/dispatch:task/010\nGo", dryRun: true });
    expect(res.body.items?.[0]?.warning).toBeNull();
  });

  it.each([
    ["content", { content: "no space format" }, /Space Format/],
    ["channel", { channel: "⫻../../../etc/passwd" }, /must not have a "\." or "\.\." part/],
    ["channel", { channel: "report/status" }, /not a channel name/],
    ["sender", { sender: "We\nPlan" }, /line feed/],
    ["type", { type: "Shout" }, /Command, Query, Info or Alert/],
  ])("is a 400 naming %s, and writes nothing", async (field, patch, why) => {
    expect((await refused({ ...send, ...patch }, 400))?.fields?.[field]).toMatch(why);
  });
});

describe("IGNITE v2 (YAML)", () => {
  const send = { source: "ignite-yaml-ignite-yaml", from: "leader", to: "ignitian_3", type: "task_assignment", priority: "high", payload: 'task_id: "task_077"\ntitle: "v2 compose"\n' };

  it("writes a new file in the recipient's queue as the v2 tools do", async () => {
    const { item, message, entries } = await sent(send, "ignite-yaml", readIgniteYaml);
    expect(item.path).toMatch(/^queue\/ignitian_3\/task_assignment_\d{16}\.yaml$/);
    expect(entries[0]?.data).toMatchObject({ type: "task_assignment", from: "leader", to: "ignitian_3", priority: "high", payload: { task_id: "task_077" } });
    expect(message.history.some((h) => h.kind === "composed")).toBe(true);
  });

  it.each([
    ["payload", { payload: "a: [" }, /not valid YAML/],
    ["payload", { payload: "- a list\n" }, /mapping/],
    ["to", { to: "nobody" }, /no queue\/nobody/],
    ["priority", { priority: "urgent" }, /high, normal, low or critical/],
  ])("is a 400 naming %s, and writes nothing", async (field, patch, why) => {
    expect((await refused({ ...send, ...patch }, 400))?.fields?.[field]).toMatch(why);
  });
});

describe("Reply: the protocol's own answer, prefilled from a journaled message and sent as is", () => {
  async function replyTo(messageId: string) {
    const [summary] = listMessages({ q: `mid:${messageId}` }).items;
    const original = await getMessage(summary?.key ?? "");
    const spec = original ? composeFormOf(original.protocol) : null;
    const values = original && spec ? spec.reply(original) : null;
    expect(values, messageId).not.toBeNull();
    return { original: original!, values: values!, source: original!.source };
  }

  it("shogun: to the sender's inbox, from the inbox that held it", async () => {
    const { values, source } = await replyTo("msg_20260206_104155_1b7e90c4");
    expect(values).toMatchObject({ to: "ashigaru1", from: "karo" });
    const { item } = await sent({ source, ...values, content: "確認した。" }, "shogun", readShogun);
    expect(item.path).toBe("queue/inbox/ashigaru1.yaml");
  });

  it("workflow: to the sender, in the same workflow, completing the same task", async () => {
    const { values, source } = await replyTo("msg_20260125143455_5e6f7a8b");
    expect(values).toMatchObject({ workflow: WORKFLOW, to: "orchestrator", from: "agent_security", type: "task_complete" });
    expect(JSON.parse(values.payload ?? "")).toMatchObject({ task_id: "task_003" });
    const { item, message } = await sent({ source, ...values }, "workflow", readWorkflow);
    expect(item.path).toBe(`.claude/workflow/${WORKFLOW}/channel/orchestrator.jsonl`);
    expect(message.from).toBe("agent_security");
  });

  it("KickLang: sender and receiver swapped, the correlation id kept, a command answered on ⫻report/status", async () => {
    const { values, source } = await replyTo("d130c0ae-e8ef-4937-9851-2321c99322a5");
    expect(values).toMatchObject({ sender: "WePlan", receiver: "Orchestrator", channel: "⫻report/status", correlationId: "d130c0ae-e8ef-4937-9851-2321c99322a5" });
    const { message } = await sent({ source, ...values, content: `${values.content}Accepted` }, "kicklang", readKicklang);
    expect(message).toMatchObject({ from: "WePlan", to: ["Orchestrator"], correlationId: "d130c0ae-e8ef-4937-9851-2321c99322a5" });
  });

  it("IGNITE v2: to the sender, carrying the task_id", async () => {
    const [summary] = listMessages({ q: "path:queue/ignitian_3/task_assignment_1770262835003318.yaml" }).items;
    const original = await getMessage(summary?.key ?? "");
    const values = composeFormOf("ignite-yaml")?.reply(original!);
    expect(values).toMatchObject({ to: original?.from, from: "ignitian_3", payload: 'task_id: task_003\n' });
    const { item } = await sent({ source: original?.source, ...values }, "ignite-yaml", readIgniteYaml);
    expect(item.path).toMatch(new RegExp(`^queue/${original?.from}/progress_update_\\d{16}\\.yaml$`));
  });
});
