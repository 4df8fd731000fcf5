import "server-only";
// multi-agent-workflow's own actions: send a message to an agent, the orchestrator or everyone,
// resend an unacked one (the same message, same id, appended again), abort an agent's task. Each
// is one compact JSON line appended with one O_APPEND write (lib/operations/append.ts), in the
// shape and key order of the Node tool's `sendMessage` (shared/communication/message-queue.js).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { z } from "zod";
import { appendLine, sizeWarnings } from "@/lib/operations/append";
import { resolveForWrite } from "@/lib/operations/fs";
import { readForWrite } from "@/lib/operations/read-text";
import { assertUnchanged, checkInput, objectsOf, expectSchema, lineField, nameField, type Expect, type WritePlan } from "@/lib/protocols/write-kit";
import { ApiError } from "@/lib/server/api-error";
import { ACKED_TYPES, payloadField } from "./client";
import { readRegistry } from "./health";
import { WORKFLOW_DIR } from "./paths";

const base = { workflowId: nameField, expect: expectSchema.optional() };
export const sendSchema = z.object({ ...base, to: nameField, from: nameField.default("orchestrator"), type: nameField, payload: payloadField.default({}) }).strict();
export const resendSchema = z.object({ ...base, to: nameField, id: lineField }).strict();
export const abortSchema = z.object({ ...base, agent: nameField, from: nameField.default("orchestrator"), taskId: lineField.optional(), reason: lineField.optional() }).strict();

export interface WorkflowOp {
  path: string;
  line: string;
  /** The message's id (a resend repeats it). */
  id: string;
  expect?: Expect;
  /** A resend: the agent and its ack file, read again just before the append (see run). */
  ack?: { agent: string; path: string };
  /** The "sent" event the Node tool's sendMessage logs with every message, and where (see logSent). */
  sent: { log: string; message: { id: string; from: unknown; to: unknown; type: unknown }; workflowId: string };
}

/** The channel file a message to `to` goes to, as the tools choose it. */
export function channelPath(workflowId: string, to: string): string {
  const dir = `${WORKFLOW_DIR}/${workflowId}/channel`;
  if (to === "broadcast") return `${dir}/broadcast.jsonl`;
  if (to === "orchestrator") return `${dir}/orchestrator.jsonl`;
  return `${dir}/agents/${to}.jsonl`;
}

/** `msg_20261126114500_1a2b3c4d`: UTC date and time, 4 random bytes (the Node tool's generateId). */
export function newMessageId(now: Date, prefix = "msg"): string {
  return `${prefix}_${now.toISOString().replace(/[-:T]/g, "").slice(0, 14)}_${randomBytes(4).toString("hex")}`;
}

/** What the Node tool logs to `logs/events.jsonl` for each message it sends. */
function sentOf(workflowId: string, m: { id: string; from: unknown; to: unknown; type: unknown }): WorkflowOp["sent"] {
  return { log: `${WORKFLOW_DIR}/${workflowId}/logs/events.jsonl`, message: { id: m.id, from: m.from, to: m.to, type: m.type }, workflowId };
}

/**
 * Log a message's "sent" event, as sendMessage does, so tools that follow the log see Mailroom's
 * sends too. After the message: one already sent is not unsent by a log that cannot be written,
 * which is said in the server log instead.
 */
async function logSent(root: string, { log, message, workflowId }: WorkflowOp["sent"], now: Date): Promise<void> {
  const event = { id: newMessageId(now, "evt"), timestamp: now.toISOString(), workflow_id: workflowId, event_type: "message", data: { message_id: message.id, from: message.from, to: message.to, type: message.type }, status: "sent" };
  try {
    await appendLine(await resolveForWrite(root, log), `${JSON.stringify(event)}\n`, log);
  } catch (err) {
    console.error(`[mailroom] ${message.id} was sent, but its "sent" event could not be added to ${log}:`, err);
  }
}

async function workflowAbs(root: string, rel: string, workflowId: string): Promise<string> {
  const abs = await resolveForWrite(root, rel);
  const wf = await resolveForWrite(root, `${WORKFLOW_DIR}/${workflowId}`);
  if (!fs.existsSync(wf)) throw new ApiError(400, "bad_request", `workflowId: there is no workflow ${workflowId} in ${WORKFLOW_DIR}`);
  return abs;
}

function planOf(op: WorkflowOp, warnings: string[] = []): WritePlan<WorkflowOp> {
  return { path: op.path, bytes: op.line, warnings: [...warnings, ...sizeWarnings(op.line)], op };
}

function message(v: { to: string; from: string; type: string; payload: Record<string, unknown> }, now: Date) {
  return { id: newMessageId(now), timestamp: now.toISOString(), from: v.from, to: v.to, type: v.type, payload: v.payload, requires_ack: ACKED_TYPES.includes(v.type) };
}

export async function planSend(root: string, input: unknown, now = new Date()): Promise<WritePlan<WorkflowOp>> {
  const v = checkInput(sendSchema, input);
  const path = channelPath(v.workflowId, v.to);
  const abs = await workflowAbs(root, path, v.workflowId);
  const m = message(v, now);
  return planOf({ path, line: `${JSON.stringify(m)}\n`, id: m.id, expect: v.expect, sent: sentOf(v.workflowId, m) }, await unregisteredWarning(root, v.workflowId, v.to, abs));
}

/**
 * The tools' registerAgent truncates the agent's channel file: a message sent to an agent that has
 * not registered yet (none in state/agents.json, no channel file) is lost when it starts.
 */
async function unregisteredWarning(root: string, workflowId: string, to: string, channelAbs: string): Promise<string[]> {
  if (to === "broadcast" || to === "orchestrator" || fs.existsSync(channelAbs)) return [];
  const registry = `${WORKFLOW_DIR}/${workflowId}/state/agents.json`;
  await resolveForWrite(root, registry);
  const bytes = await readForWrite(root, registry);
  const agents = bytes ? readRegistry(bytes).map((a) => a.agent) : [];
  if (agents.includes(to)) return [];
  return [`${to} has not registered in this workflow yet (state/agents.json): its tools empty channel/agents/${to}.jsonl when it registers, so this message would be lost.`];
}

/** An abort message to the agent (the tools require it to be acknowledged). */
export async function planAbort(root: string, input: unknown, now = new Date()): Promise<WritePlan<WorkflowOp>> {
  const v = checkInput(abortSchema, input);
  const payload: Record<string, unknown> = {};
  if (v.taskId !== undefined) payload.task_id = v.taskId;
  if (v.reason !== undefined) payload.reason = v.reason;
  return planSend(root, { workflowId: v.workflowId, to: v.agent, from: v.from, type: "abort", payload, expect: v.expect }, now);
}

/** Acks of `id` in the agent's ack file (both shapes: `msg_id`, or the spec's `ack_for`). */
async function ackedStatus(root: string, ackPath: string, id: string): Promise<string | null> {
  const acks = (await objectsOf(root, ackPath)).filter((v) => v.msg_id === id || v.ack_for === id);
  const last = acks.at(-1)?.status;
  return acks.length ? (typeof last === "string" ? last : "acknowledged") : null;
}

/** The unacked message `id` appended again to its channel, byte for byte as a compact line. */
export async function planResend(root: string, input: unknown): Promise<WritePlan<WorkflowOp>> {
  const v = checkInput(resendSchema, input);
  const path = channelPath(v.workflowId, v.to);
  await workflowAbs(root, path, v.workflowId);
  const original = (await objectsOf(root, path)).findLast((o) => o.id === v.id);
  if (!original) throw new ApiError(409, "entry_gone", `${path} no longer holds ${v.id} (the file was truncated or rotated since it was read); nothing was sent`);
  const ack = ["broadcast", "orchestrator"].includes(v.to) ? undefined : { agent: v.to, path: `${path.slice(0, -".jsonl".length)}.ack` };
  if (ack) await refuseAcked(root, ack.path, v.id, ack.agent);
  const warnings = original.requires_ack === true ? [] : [`${v.id} does not require an ack; resending it delivers it twice.`];
  return planOf({ path, line: `${JSON.stringify(original)}\n`, id: v.id, expect: v.expect, ack, sent: sentOf(v.workflowId, { id: v.id, from: original.from, to: original.to, type: original.type }) }, warnings);
}

/** A 409 once the agent has acknowledged `id`: the tools' readers do not skip an id read before, so a resend would deliver it twice. */
async function refuseAcked(root: string, ackPath: string, id: string, to: string): Promise<void> {
  const acked = await ackedStatus(root, ackPath, id);
  if (acked) throw new ApiError(409, "already_acked", `${id} was already acknowledged (${acked}) by ${to}; it was not sent again`);
}

export async function run(root: string, plan: WritePlan<WorkflowOp>): Promise<{ path: string; id: string }> {
  const { op } = plan;
  const abs = await resolveForWrite(root, op.path);
  await assertUnchanged(abs, op.path, op.expect);
  // The ack file is not the channel: an ack written since the plan (a run waits behind queued scans) is only seen here.
  if (op.ack) await refuseAcked(root, op.ack.path, op.id, op.ack.agent);
  await appendLine(abs, op.line, op.path);
  await logSent(root, op.sent, new Date());
  return { path: op.path, id: op.id };
}
