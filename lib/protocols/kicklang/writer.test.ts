import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendFromChildren } from "@/lib/protocols/append-race";
import { CHANNELS_DIR } from "./channels";
import { read } from "./read";
import { resolve } from "./statuses";
import { planCompose, planReply, run } from "./writer";

const dirs: string[] = [];
function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-kicklang-w-"));
  fs.mkdirSync(path.join(ws, CHANNELS_DIR), { recursive: true });
  dirs.push(ws);
  return ws;
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const readBack = (ws: string, rel: string) => read(rel, fs.readFileSync(path.join(ws, rel)));
const DISPATCH = { sender: "Orchestrator", receiver: "Kick La Metta", type: "Command", channel: "⫻command/dispatch", content: "⫻task/assign:backend/003\nBuild the parser." };

describe("KickLang compose and reply", () => {
  it("appends one envelope line to the channel's file, read back without problems", async () => {
    const ws = workspace();
    const now = new Date("2026-11-26T12:00:00.000Z");
    const plan = await planCompose(DISPATCH, now);
    expect(plan).toMatchObject({ path: `${CHANNELS_DIR}/command/dispatch.jsonl`, warnings: [] });
    await run(ws, plan);
    const value = JSON.parse(plan.bytes) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["id", "timestamp", "sender", "receiver", "type", "channel", "content", "correlation_id"]);
    expect(value).toMatchObject({ ...DISPATCH, timestamp: "2026-11-26T12:00:00.000Z", correlation_id: null });
    expect(value.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [e] = readBack(ws, plan.path).entries;
    expect(e).toMatchObject({ messageId: value.id, from: "Orchestrator", to: ["Kick La Metta"], problems: [] });
  });

  it("replies to the request's sender on a Unicode channel, keeping the thread's correlation id", async () => {
    const ws = workspace();
    const request = await planCompose(DISPATCH);
    await run(ws, request);
    const reply = await planReply(ws, { requestChannel: "⫻command/dispatch", requestId: request.op.id, sender: "Kick La Metta", channel: "⫻report/進捗", content: "⫻status/accepted:backend/003\nAccepted." });
    expect(reply.path).toBe(`${CHANNELS_DIR}/report/%E9%80%B2%E6%8D%97.jsonl`);
    await run(ws, reply);
    expect(JSON.parse(reply.bytes)).toMatchObject({ receiver: "Orchestrator", correlation_id: request.op.id, channel: "⫻report/進捗" });
    expect(readBack(ws, reply.path).entries[0]).toMatchObject({ correlationId: request.op.id, problems: [] });
    const second = await planReply(ws, { requestChannel: "⫻report/進捗", requestId: reply.op.id, sender: "Orchestrator", content: "⫻status/ok:backend/003" });
    expect(JSON.parse(second.bytes)).toMatchObject({ correlation_id: request.op.id, receiver: "Kick La Metta" });
    await expect(planReply(ws, { requestChannel: "⫻command/dispatch", requestId: "gone", sender: "X", content: "⫻a/b:c/d" })).rejects.toMatchObject({ status: 409 });
  });

  it("answers a Query inside a thread with the Query's own id, which the reader then counts as answered", async () => {
    const ws = workspace();
    const request = await planCompose(DISPATCH);
    await run(ws, request);
    const query = await planCompose({ sender: "Kick La Metta", receiver: "Orchestrator", type: "Query", channel: "⫻query/backend", content: "⫻query/scope:backend/003\nWhich endpoints?", correlationId: request.op.id });
    await run(ws, query);
    const answer = await planReply(ws, { requestChannel: "⫻query/backend", requestId: query.op.id, sender: "Orchestrator", content: "⫻answer/scope:backend/003\nAll of /v1." });
    // Rule 3: a response carries the correlation_id of its request; the thread's root would leave the Query unanswered.
    expect(JSON.parse(answer.bytes)).toMatchObject({ correlation_id: query.op.id, receiver: "Kick La Metta" });
    await run(ws, answer);
    expect(readBack(ws, answer.path).entries.map((e) => e.correlationId)).toEqual([request.op.id, query.op.id]);
    // As the journal settles them: the Query answered, and the answer in the dispatch's thread (its correlation root).
    const settled = resolve([...readBack(ws, request.path).entries, ...readBack(ws, answer.path).entries]);
    expect(settled.find((e) => e.messageId === query.op.id)).toMatchObject({ status: "answered", threadKey: request.op.id });
    expect(settled.find((e) => e.messageId === answer.op.id)).toMatchObject({ threadKey: request.op.id });
  });

  it("needs a confirmation to break the role rule on ⫻command/*, and the envelope records it", async () => {
    const ws = workspace();
    const rogue = { ...DISPATCH, sender: "QllickBuzz & QllickFizz", channel: "⫻command/other" };
    const plan = await planCompose(rogue);
    expect(plan.warnings.join()).toMatch(/Only the Orchestrator .*Confirm/);
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "confirmation_required" });
    expect(fs.existsSync(path.join(ws, plan.path))).toBe(false);
    const confirmed = await planCompose({ ...rogue, confirmRoleRule: true });
    await run(ws, confirmed);
    expect(readBack(ws, confirmed.path).entries[0]?.data).toMatchObject({ confirmed_rules: ["role-authorization"] });
  });

  it("refuses content that is not Space Format, bad fields and unstorable channels, naming the field", async () => {
    await expect(planCompose({ ...DISPATCH, content: '{"json": true}' })).rejects.toThrow(/content: The content is not a Space Format string/);
    await expect(planCompose({ ...DISPATCH, sender: "Or\u0000ch" })).rejects.toThrow(/sender: .*NUL/);
    await expect(planCompose({ ...DISPATCH, type: "Order" })).rejects.toThrow(/type: must be Command, Query, Info or Alert/);
    for (const channel of ["report/status", "⫻a//b", "⫻a/b\nc", `⫻a/${"x".repeat(300)}`]) await expect(planCompose({ ...DISPATCH, channel }), channel).rejects.toThrow(/channel: /);
    // Stored safely it would be (as %2E%2E), but a name that reads as leaving the tree is refused (issue 25, point 7).
    await expect(planCompose({ ...DISPATCH, channel: "⫻../../etc" })).rejects.toThrow(/channel: must not have a "\." or "\.\." part/);
  });

  it("never writes through a linked channel folder or file", async () => {
    const ws = workspace();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-kicklang-outside-"));
    dirs.push(outside);
    fs.symlinkSync(outside, path.join(ws, CHANNELS_DIR, "report"));
    const plan = await planCompose({ ...DISPATCH, sender: "Kick La Metta", receiver: "Orchestrator", type: "Info", channel: "⫻report/status", content: "⫻status/ok:a/1" });
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 400, code: "bad_path" });
    fs.mkdirSync(path.join(ws, CHANNELS_DIR, "alert"));
    fs.symlinkSync(path.join(outside, "x.jsonl"), path.join(ws, CHANNELS_DIR, "alert/error.jsonl"));
    const alert = await planCompose({ ...DISPATCH, type: "Alert", receiver: "Broadcast", channel: "⫻alert/error", content: "⫻alert/error:a/1" });
    await expect(run(ws, alert)).rejects.toMatchObject({ status: 400, code: "not_a_file" });
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("appends intact beside concurrent appenders", { timeout: 120_000 }, async () => {
    const ws = workspace();
    const rel = `${CHANNELS_DIR}/report/status.jsonl`;
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    const children = appendFromChildren(path.join(ws, rel), 6, 300, 65_536);
    const ours: string[] = [];
    for (let i = 0; i < 100; i++) {
      const plan = await planCompose({ sender: "Kick La Metta", receiver: "Orchestrator", type: "Info", channel: "⫻report/status", content: `⫻status/progress:backend/${i}\n${"z".repeat(i * 50)}` });
      ours.push((await run(ws, plan)).id);
    }
    expect(await children).toEqual(Array(6).fill(0));
    const r = readBack(ws, rel);
    const ids = r.entries.map((e) => e.locator);
    console.log(`kicklang race: 1800 child lines + ${ours.length} Mailroom lines; read back ${r.entries.length}; problems ${r.problems.length}`);
    expect(r.problems).toEqual([]);
    expect(ids).toHaveLength(1900);
    expect(new Set(ids).size).toBe(1900);
    expect(ours.every((id) => ids.includes(id))).toBe(true);
  });
});
