import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import type { Entry } from "@/lib/protocols/entries";
import { agentHealth, readHeartbeat, readRegistry } from "./health";
import { placeWorkflow } from "./paths";
import { read } from "./read";
import { resolve } from "./statuses";

const WF = ".claude/workflow/orchestrate_20260125_143000_a1b2c3d4";
const bytesOf = (rel: string) => fs.readFileSync(fixturePath("workflow", WF, rel));
function readFixture(rel: string): Entry[] {
  const bytes = bytesOf(rel);
  const r = read(`${WF}/${rel}`, bytes);
  expect(r.problems).toEqual([]);
  expect(r.consumed).toBe(bytes.length);
  return r.entries;
}
const CHANNELS = ["channel/broadcast.jsonl", "channel/orchestrator.jsonl", "channel/agents/agent_architecture.jsonl", "channel/agents/agent_cognitive.jsonl", "channel/agents/agent_security.jsonl"];
const ACKS = ["channel/agents/agent_architecture.ack", "channel/agents/agent_cognitive.ack"];
const LOGS = ["logs/events.jsonl", "logs/errors.jsonl", "logs/actions.jsonl"];

describe("workflow paths", () => {
  it("places channels, acks, heartbeats, the registry and logs; ignores the rest", () => {
    const id = "orchestrate_20260125_143000_a1b2c3d4";
    expect(placeWorkflow(`${WF}/channel/broadcast.jsonl`)).toEqual({ agent: "broadcast", folder: "channel", role: "channel", workflowId: id });
    expect(placeWorkflow(`${WF}/channel/agents/agent_security.jsonl`)).toEqual({ agent: "agent_security", folder: "channel", role: "channel", workflowId: id });
    expect(placeWorkflow(`${WF}/channel/agents/agent_cognitive.ack`)).toEqual({ agent: "agent_cognitive", folder: "channel", role: "ack", workflowId: id });
    expect(placeWorkflow(`${WF}/state/heartbeat/agent_security.ts`)).toMatchObject({ agent: "agent_security", role: "heartbeat" });
    expect(placeWorkflow(`${WF}/state/agents.json`)).toMatchObject({ role: "registry" });
    expect(placeWorkflow(`${WF}/logs/events.jsonl`)).toMatchObject({ role: "log", folder: "logs" });
    for (const p of [".claude/workflow/current.json", `${WF}/channel/.x.jsonl`, `${WF}/channel/agents/a.jsonl.tmp1`, `${WF}/channel/agents/a.lock`, `${WF}/channel/other.jsonl`, `${WF}/logs/other.jsonl`, "x/channel/broadcast.jsonl"]) {
      expect(placeWorkflow(p), p).toBeNull();
    }
  });
});

describe("workflow read on the fixture", () => {
  it("reads every message, pretty and compact, with its status before acks are settled", () => {
    const entries = CHANNELS.flatMap(readFixture);
    expect(entries.map((e) => [e.locator, e.agent, e.type, e.status, e.dueAt, e.threadKey])).toEqual([
      ["msg_20260125_143050_11aa22bb", "broadcast", "checkpoint_request", "unacked", "2026-01-25T14:30:55.000Z", null],
      ["msg_20260125143401_33cc44dd", "orchestrator", "task_complete", "sent", null, "orchestrate_20260125_143000_a1b2c3d4:task_001"],
      ["msg_20260125_143022_abc123de", "agent_architecture", "task_assign", "unacked", "2026-01-25T14:30:27.456Z", "orchestrate_20260125_143000_a1b2c3d4:task_001"],
      ["msg_20260125_143300_0f1e2d3c", "agent_architecture", "progress_update", "sent", null, null],
      ["msg_20260125143023_9a8b7c6d", "agent_cognitive", "task_assign", "unacked", "2026-01-25T14:30:28.002Z", "orchestrate_20260125_143000_a1b2c3d4:task_002"],
      ["msg_20260125143455_5e6f7a8b", "agent_security", "task_assign", "unacked", "2026-01-25T14:35:00.310Z", "orchestrate_20260125_143000_a1b2c3d4:task_003"],
    ]);
    const first = entries[0]!;
    expect(first).toMatchObject({ kind: "message", from: "orchestrator", to: ["broadcast"], date: "2026-01-25T14:30:50.000Z", folder: "channel", problems: [] });
    expect(bytesOf("channel/broadcast.jsonl").toString("utf8", first.span!.start, first.span!.end)).toMatch(/^\{\n[\s\S]*\n\}$/);
  });

  it("reads acks of both shapes as ack entries linking to their message", () => {
    const acks = ACKS.flatMap(readFixture);
    const arch = bytesOf(ACKS[0]!);
    // The tools' shape has no id: located by its byte offset.
    const second = String(arch.indexOf('{\n  "msg_id": "msg_20260125_143050'));
    const third = String(arch.indexOf('{"msg_id"'));
    expect([second, third]).toEqual(["107", "214"]);
    expect(acks.map((e) => [e.kind, e.locator, e.status, e.from, e.date, e.links])).toEqual([
      ["ack", "0", "received", "agent_architecture", "2026-01-25T14:30:25.123Z", [{ kind: "acks", targetId: "msg_20260125_143022_abc123de", detail: { status: "received", at: "2026-01-25T14:30:25.123Z", from: "agent_architecture" } }]],
      ["ack", second, "received", "agent_architecture", "2026-01-25T14:30:51.870Z", [{ kind: "acks", targetId: "msg_20260125_143050_11aa22bb", detail: { status: "received", at: "2026-01-25T14:30:51.870Z", from: "agent_architecture" } }]],
      ["ack", third, "processed", "agent_architecture", "2026-01-25T14:34:02.789Z", [{ kind: "acks", targetId: "msg_20260125_143022_abc123de", detail: { status: "processed", at: "2026-01-25T14:34:02.789Z", from: "agent_architecture" } }]],
      ["ack", "ack_20260125_143025_def456", "received", "agent_cognitive", "2026-01-25T14:30:25.480Z", [{ kind: "acks", targetId: "msg_20260125143023_9a8b7c6d", detail: { status: "received", at: "2026-01-25T14:30:25.480Z", from: "agent_cognitive" } }]],
      ["ack", "ack_20260125_143052_0a1b2c", "received", "agent_cognitive", "2026-01-25T14:30:52.004Z", [{ kind: "acks", targetId: "msg_20260125_143050_11aa22bb", detail: { status: "received", at: "2026-01-25T14:30:52.004Z", from: "agent_cognitive" } }]],
    ]);
  });

  it("resolve: task_001 processed, task_002 and the broadcast received, task_003 still unacked and due", () => {
    const all = resolve([...CHANNELS, ...ACKS].flatMap(readFixture));
    const status = new Map(all.filter((e) => e.kind === "message").map((e) => [e.locator, [e.status, e.dueAt]]));
    expect(Object.fromEntries(status)).toEqual({
      "msg_20260125_143050_11aa22bb": ["received", null],
      "msg_20260125143401_33cc44dd": ["sent", null],
      "msg_20260125_143022_abc123de": ["processed", null],
      "msg_20260125_143300_0f1e2d3c": ["sent", null],
      "msg_20260125143023_9a8b7c6d": ["received", null],
      "msg_20260125143455_5e6f7a8b": ["unacked", "2026-01-25T14:35:00.310Z"],
    });
    expect(all.filter((e) => e.problems.length > 0)).toEqual([]);
  });

  it("keeps the furthest ack whatever the order: a late 'received' does not undo 'processed'", () => {
    const msg = read(`${WF}/channel/agents/agent_x.jsonl`, Buffer.from('{"id":"m1","timestamp":"2026-01-25T14:30:00Z","type":"task_assign","requires_ack":true}\n')).entries;
    const acks = read(`${WF}/channel/agents/agent_x.ack`, Buffer.from('{"msg_id":"m1","status":"processed","at":"2026-01-25T14:30:09Z"}\n{"msg_id":"m1","status":"received","at":"2026-01-25T14:30:10Z"}\n')).entries;
    expect(resolve([...msg, ...acks])[0]).toMatchObject({ status: "processed", dueAt: null });
  });

  it("flags an ack for a message it cannot find", () => {
    const ack = read(`${WF}/channel/agents/agent_x.ack`, Buffer.from('{"msg_id":"msg_nowhere","status":"received","at":"2026-01-25T14:30:25Z"}\n')).entries;
    expect(resolve(ack)[0]?.problems.map((p) => p.code)).toEqual(["orphan-ack"]);
  });

  it("reads events, errors and actions as log entries", () => {
    const logs = LOGS.flatMap(readFixture);
    expect(logs).toHaveLength(8 + 2 + 2);
    expect(logs.every((e) => e.kind === "log" && e.status === "logged")).toBe(true);
    expect(logs[1]).toMatchObject({ locator: "evt_20260125_143022_a1b2c3", type: "message", rawStatus: "sent", inReplyTo: "msg_20260125_143022_abc123de" });
    expect(logs[9]).toMatchObject({ locator: "err_20260125143350_7d8e9f0a", type: "agent_failure", agent: "agent_cognitive", body: "heartbeat timeout (>30s)" });
  });

  it("reads an append from the previous offset, and a value being written only once it is complete", () => {
    const whole = bytesOf("channel/agents/agent_architecture.jsonl");
    const cut = whole.indexOf('"type": "progress_update"');
    const first = read(`${WF}/channel/agents/agent_architecture.jsonl`, whole.subarray(0, cut));
    expect(first.entries.map((e) => e.locator)).toEqual(["msg_20260125_143022_abc123de"]);
    expect(first.problems).toEqual([]);
    const rest = read(`${WF}/channel/agents/agent_architecture.jsonl`, whole.subarray(first.consumed), { offset: first.consumed });
    expect(rest.entries.map((e) => [e.locator, e.span?.start])).toEqual([["msg_20260125_143300_0f1e2d3c", whole.indexOf('{\n  "id": "msg_20260125_143300')]]);
    expect(rest.consumed).toBe(whole.length);
  });

  it("takes a message without requires_ack from its type, and lists a value that is not an object as a problem", () => {
    const r = read(`${WF}/channel/orchestrator.jsonl`, Buffer.from('{"id":"m1","timestamp":"2026-01-25T14:00:00Z","type":"abort"}\n\n[1,2]\n'), { ackDueMs: 10_000 });
    expect(r.entries.map((e) => [e.status, e.dueAt])).toEqual([["unacked", "2026-01-25T14:00:10.000Z"]]);
    expect(r.problems.map((p) => p.code)).toEqual(["parse"]);
  });
});

describe("workflow health", () => {
  it("computes liveness from the heartbeat files: agent_cognitive unresponsive at 14:35:30", () => {
    const heartbeats = Object.fromEntries(["agent_architecture", "agent_cognitive", "agent_security"].map((a) => [a, readHeartbeat(bytesOf(`state/heartbeat/${a}.ts`))]));
    expect(heartbeats).toEqual({ agent_architecture: "2026-01-25T14:35:22.000Z", agent_cognitive: "2026-01-25T14:31:10.000Z", agent_security: "2026-01-25T14:35:25.412Z" });
    const registry = readRegistry(bytesOf("state/agents.json"));
    expect(registry.find((r) => r.agent === "agent_security")).toEqual({ agent: "agent_security", perspective: "security", status: "registered", registeredAt: "2026-01-25T14:34:50.000Z", lastHeartbeat: "2026-01-25T14:35:25.412Z" });
    const health = agentHealth({ heartbeats, registry, now: new Date("2026-01-25T14:35:30Z") });
    expect(health.map((h) => [h.agent, h.health])).toEqual([["agent_architecture", "finished"], ["agent_cognitive", "unresponsive"], ["agent_security", "alive"], ["unknown", "finished"]]);
    // The threshold is configurable, and without a registry the heartbeat alone decides.
    expect(agentHealth({ heartbeats, registry: [], now: new Date("2026-01-25T14:35:30Z"), unresponsiveAfterMs: 5_000 }).map((h) => h.health)).toEqual(["unresponsive", "unresponsive", "alive"]);
    expect(readHeartbeat(Buffer.from("not a time"))).toBeNull();
    expect(readRegistry(Buffer.from("{"))).toEqual([]);
  });

  it("gives no entries for heartbeat and registry files", () => {
    expect(read(`${WF}/state/agents.json`, bytesOf("state/agents.json"))).toMatchObject({ entries: [], problems: [] });
  });
});
