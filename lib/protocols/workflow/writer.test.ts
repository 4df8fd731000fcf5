import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendFromChildren } from "@/lib/protocols/append-race";
import { read } from "./read";
import { planAbort, planResend, planSend, run } from "./writer";

const WF = ".claude/workflow/wf_1";
const dirs: string[] = [];
function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-workflow-w-"));
  fs.mkdirSync(path.join(ws, WF, "channel/agents"), { recursive: true });
  dirs.push(ws);
  return ws;
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const rel = (to: string) => (to === "broadcast" || to === "orchestrator" ? `${WF}/channel/${to}.jsonl` : `${WF}/channel/agents/${to}.jsonl`);
const readBack = (ws: string, r: string) => read(r, fs.readFileSync(path.join(ws, r)));

describe("workflow send, abort, resend", () => {
  it("appends one compact line to the right channel, as the Node tool writes it", async () => {
    const ws = workspace();
    const now = new Date("2026-11-26T11:45:00.123Z");
    for (const [to, type, ack] of [["agent-a", "task_assign", true], ["orchestrator", "progress_update", false], ["broadcast", "checkpoint_request", true]] as const) {
      const plan = await planSend(ws, { workflowId: "wf_1", to, type, payload: '{"task_id":"t1"}' }, now);
      expect(plan.path).toBe(rel(to));
      await run(ws, plan);
      const line = fs.readFileSync(path.join(ws, rel(to)), "utf8");
      expect(line).toBe(plan.bytes);
      expect(line).toMatch(/^\{"id":"msg_20261126114500_[0-9a-f]{8}","timestamp":"2026-11-26T11:45:00.123Z","from":"orchestrator","to":"[a-z-]+","type":"[a-z_]+","payload":\{"task_id":"t1"\},"requires_ack":(true|false)\}\n$/);
      expect(JSON.parse(line)).toMatchObject({ to, type, requires_ack: ack });
      expect(readBack(ws, rel(to)).entries.map((e) => e.messageId)).toEqual([plan.op.id]);
    }
    const abort = await planAbort(ws, { workflowId: "wf_1", agent: "agent-a", taskId: "t1", reason: "superseded" });
    await run(ws, abort);
    expect(JSON.parse(abort.bytes)).toMatchObject({ type: "abort", to: "agent-a", payload: { task_id: "t1", reason: "superseded" }, requires_ack: true });
    // Each send logs its "sent" event, one compact line as sendMessage logs it, so tools that follow the log see it.
    const events = fs.readFileSync(path.join(ws, WF, "logs/events.jsonl"), "utf8").trimEnd().split("\n");
    expect(events).toHaveLength(4);
    expect(events[0]).toMatch(/^\{"id":"evt_\d{14}_[0-9a-f]{8}","timestamp":"[^"]+","workflow_id":"wf_1","event_type":"message","data":\{"message_id":"msg_20261126114500_[0-9a-f]{8}","from":"orchestrator","to":"agent-a","type":"task_assign"\},"status":"sent"\}$/);
    expect(JSON.parse(events[3] ?? "")).toMatchObject({ data: { message_id: abort.op.id, to: "agent-a", type: "abort" } });
  });

  it("warns that a message to an agent that has not registered would be lost when it registers", async () => {
    const ws = workspace();
    const send = (to: string) => planSend(ws, { workflowId: "wf_1", to, type: "task_assign", payload: "{}" });
    const lost = /agent-b has not registered in this workflow yet \(state\/agents\.json\): its tools empty channel\/agents\/agent-b\.jsonl when it registers/;
    expect((await send("agent-b")).warnings).toEqual([expect.stringMatching(lost)]);
    fs.mkdirSync(path.join(ws, WF, "state"));
    fs.writeFileSync(path.join(ws, WF, "state/agents.json"), JSON.stringify({ agents: { "agent-b": { status: "registered", registered_at: "2026-11-26T11:00:00Z" } } }));
    expect((await send("agent-b")).warnings).toEqual([]);
    // Its channel file there: it registered (registerAgent made it).
    fs.writeFileSync(path.join(ws, rel("agent-c")), "");
    expect((await send("agent-c")).warnings).toEqual([]);
    expect((await send("broadcast")).warnings).toEqual([]);
  });

  it("resends an unacked message with the same id; refuses an acked or vanished one", async () => {
    const ws = workspace();
    const sent = await planSend(ws, { workflowId: "wf_1", to: "agent-a", type: "task_assign", payload: {} });
    await run(ws, sent);
    const again = await planResend(ws, { workflowId: "wf_1", to: "agent-a", id: sent.op.id });
    expect(again.bytes).toBe(sent.bytes);
    await run(ws, again);
    expect(fs.readFileSync(path.join(ws, rel("agent-a")), "utf8")).toBe(sent.bytes + sent.bytes);
    fs.writeFileSync(path.join(ws, `${WF}/channel/agents/agent-a.ack`), `{"msg_id":"${sent.op.id}","status":"received","at":"2026-11-26T11:45:01Z"}\n`);
    await expect(planResend(ws, { workflowId: "wf_1", to: "agent-a", id: sent.op.id })).rejects.toMatchObject({ status: 409, code: "already_acked" });
    await expect(planResend(ws, { workflowId: "wf_1", to: "agent-a", id: "msg_gone" })).rejects.toMatchObject({ status: 409, code: "entry_gone" });
  });

  it("refuses a resend whose ack was written after it was planned: the tools would run the task twice", async () => {
    const ws = workspace();
    const sent = await planSend(ws, { workflowId: "wf_1", to: "agent-a", type: "task_assign", payload: {} });
    await run(ws, sent);
    const again = await planResend(ws, { workflowId: "wf_1", to: "agent-a", id: sent.op.id });
    fs.writeFileSync(path.join(ws, `${WF}/channel/agents/agent-a.ack`), `{"ack_for":"${sent.op.id}","status":"processed"}\n`);
    await expect(run(ws, again)).rejects.toMatchObject({ status: 409, code: "already_acked", message: expect.stringContaining("(processed) by agent-a") });
    expect(fs.readFileSync(path.join(ws, rel("agent-a")), "utf8")).toBe(sent.bytes);
  });

  it("never waits on a pipe where a file it reads or appends to should be: a 409 at once, the server free", async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, WF, "state"));
    execFileSync("mkfifo", [path.join(ws, WF, "state/agents.json")]);
    await expect(planSend(ws, { workflowId: "wf_1", to: "agent-new", type: "task_assign", payload: {} })).rejects.toMatchObject({ status: 409, code: "not_a_file" });
    fs.rmSync(path.join(ws, WF, "state/agents.json"));
    const sent = await planSend(ws, { workflowId: "wf_1", to: "agent-a", type: "task_assign", payload: {} });
    await run(ws, sent);
    execFileSync("mkfifo", [path.join(ws, `${WF}/channel/agents/agent-a.ack`)]);
    await expect(planResend(ws, { workflowId: "wf_1", to: "agent-a", id: sent.op.id })).rejects.toMatchObject({ status: 409, code: "not_a_file" });
    fs.rmSync(path.join(ws, rel("agent-a")));
    execFileSync("mkfifo", [path.join(ws, rel("agent-a"))]);
    await expect(run(ws, sent)).rejects.toMatchObject({ status: 409, code: "not_a_file" });
  });

  it("refuses bad input naming the field, a missing workflow, a link, and a file changed since read", async () => {
    const ws = workspace();
    await expect(planSend(ws, { workflowId: "wf_1", to: "a/b", type: "x" })).rejects.toThrow(/to: .*must not contain/);
    await expect(planSend(ws, { workflowId: "wf_1", to: "a", type: "x", payload: "{nope" })).rejects.toThrow(/payload: is not valid JSON/);
    await expect(planSend(ws, { workflowId: "wf_1", to: "a", type: "x", payload: "[1]" })).rejects.toThrow(/payload: must be a JSON object/);
    await expect(planSend(ws, { workflowId: "wf_2", to: "a", type: "x" })).rejects.toThrow(/workflowId: there is no workflow wf_2/);
    await expect(planAbort(ws, { workflowId: "wf_1", agent: "a", reason: "x\ny" })).rejects.toThrow(/reason: .*line feed/);
    fs.symlinkSync("/tmp/elsewhere.jsonl", path.join(ws, rel("linked")));
    await expect(run(ws, await planSend(ws, { workflowId: "wf_1", to: "linked", type: "x" }))).rejects.toMatchObject({ code: "not_a_file" });
    fs.writeFileSync(path.join(ws, rel("a")), "{}\n");
    const stale = await planSend(ws, { workflowId: "wf_1", to: "a", type: "x", expect: { size: 0 } });
    await expect(run(ws, stale)).rejects.toMatchObject({ status: 409, code: "changed" });
  });

  it("appends intact beside concurrent appenders: every line parsed back by the reader", { timeout: 120_000 }, async () => {
    const ws = workspace();
    const file = path.join(ws, rel("agent-a"));
    const LANES = 6;
    const COUNT = 300;
    const children = appendFromChildren(file, LANES, COUNT, 65_536);
    const ours: string[] = [];
    for (let i = 0; i < 100; i++) {
      const plan = await planSend(ws, { workflowId: "wf_1", to: "agent-a", type: "progress_update", payload: { i, pad: "y".repeat((i * 131) % 8000) } });
      ours.push((await run(ws, plan)).id);
    }
    expect(await children).toEqual(Array(LANES).fill(0));
    const r = readBack(ws, rel("agent-a"));
    const ids = r.entries.map((e) => e.locator);
    console.log(`workflow race: ${LANES * COUNT} child lines + ${ours.length} Mailroom lines; read back ${r.entries.length}; problems ${r.problems.length}`);
    expect(r.problems).toEqual([]);
    expect(r.entries).toHaveLength(LANES * COUNT + ours.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ours.every((id) => ids.includes(id))).toBe(true);
    expect(fs.readFileSync(file, "utf8").split("\n").filter(Boolean).every((l) => JSON.parse(l) !== null)).toBe(true);
  });
});
