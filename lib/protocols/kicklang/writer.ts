import "server-only";
// KickLang's own actions: compose an envelope and reply to one (keeping its thread's correlation
// id), each one compact JSON line appended with one O_APPEND write to the channel's file. The
// reader's rule checks run before sending: content must be Space Format (a 400), and a sender
// other than the Orchestrator on `⫻command/*` needs an explicit confirmation, which the envelope
// then records in `confirmed_rules` (shown with the entry's data).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { appendLine, sizeWarnings } from "@/lib/operations/append";
import { resolveForWrite } from "@/lib/operations/fs";
import { str } from "@/lib/protocols/entry-kit";
import type { JsonObject } from "@/lib/protocols/json-stream";
import { assertUnchanged, objectsOf, bodyField, checkInput, expectSchema, lineField, type Expect, type WritePlan } from "@/lib/protocols/write-kit";
import { ApiError } from "@/lib/server/api-error";
import { CHANNELS_DIR, channelToPath } from "./channels";
import { answerCorrelation, channelField, roleRuleProblem, typeField } from "./client";
import { correlationOf, ruleProblems } from "./read";

const ROLE_RULE = "role-authorization";

const common = {
  sender: lineField,
  content: bodyField,
  /** The sender confirmed breaking the role rule (a warning in the plan until then). */
  confirmRoleRule: z.boolean().optional(),
  expect: expectSchema.optional(),
};
export const composeSchema = z.object({ ...common, receiver: lineField, type: typeField, channel: channelField, correlationId: lineField.optional() }).strict();
export const replySchema = z
  .object({ ...common, requestChannel: channelField, requestId: lineField, receiver: lineField.optional(), type: typeField.default("Info"), channel: channelField.optional() })
  .strict();

export interface KicklangOp {
  path: string;
  line: string;
  id: string;
  /** Set while the role rule is broken and unconfirmed: `run` refuses the plan. */
  unconfirmed: string | null;
  expect?: Expect;
}

function relOf(channel: string): string {
  return `${CHANNELS_DIR}/${channelToPath(channel) ?? ""}`;
}

interface Fields {
  sender: string;
  receiver: string;
  type: string;
  channel: string;
  content: string;
  correlationId: string | null;
  confirmRoleRule?: boolean;
  expect?: Expect;
}

function plan(f: Fields, now: Date): WritePlan<KicklangOp> {
  const envelope: JsonObject = {
    id: randomUUID(), timestamp: now.toISOString(), sender: f.sender, receiver: f.receiver, type: f.type, channel: f.channel, content: f.content, correlation_id: f.correlationId,
  };
  const problems = ruleProblems(envelope, f.channel);
  const format = problems.find((p) => p.code === "rule:space-format");
  if (format) throw new ApiError(400, "bad_request", `content: ${format.message}`);
  const warnings = problems.filter((p) => p.code !== "rule:role-authorization").map((p) => p.message);
  let unconfirmed: string | null = null;
  const message = roleRuleProblem(f.channel, f.sender);
  if (message) {
    if (f.confirmRoleRule) {
      envelope.confirmed_rules = [ROLE_RULE];
      warnings.push(`${message} Sent anyway, as confirmed; the envelope records it.`);
    } else {
      unconfirmed = `${message} Confirm to send it anyway.`;
      warnings.push(unconfirmed);
    }
  }
  const line = `${JSON.stringify(envelope)}\n`;
  return { path: relOf(f.channel), bytes: line, warnings: [...warnings, ...sizeWarnings(line)], op: { path: relOf(f.channel), line, id: String(envelope.id), unconfirmed, expect: f.expect } };
}

export async function planCompose(input: unknown, now = new Date()): Promise<WritePlan<KicklangOp>> {
  const v = checkInput(composeSchema, input);
  return plan({ ...v, correlationId: v.correlationId ?? null }, now);
}

/** A reply to `requestId`: to its sender, on its channel unless told otherwise, answering it (see answerCorrelation). */
export async function planReply(root: string, input: unknown, now = new Date()): Promise<WritePlan<KicklangOp>> {
  const v = checkInput(replySchema, input);
  const rel = relOf(v.requestChannel);
  await resolveForWrite(root, rel);
  const request = (await objectsOf(root, rel)).findLast((o) => o.id === v.requestId);
  if (!request) throw new ApiError(409, "entry_gone", `${rel} no longer holds ${v.requestId}; nothing was sent`);
  const receiver = v.receiver ?? str(request.sender);
  if (!receiver) throw new ApiError(400, "bad_request", "receiver: is required (the request names no sender)");
  return plan({ ...v, receiver, channel: v.channel ?? v.requestChannel, correlationId: answerCorrelation({ id: v.requestId, type: str(request.type), correlationId: correlationOf(request) }) }, now);
}

export async function run(root: string, p: WritePlan<KicklangOp>): Promise<{ path: string; id: string }> {
  const { op } = p;
  if (op.unconfirmed) throw new ApiError(409, "confirmation_required", op.unconfirmed);
  const abs = await resolveForWrite(root, op.path);
  await assertUnchanged(abs, op.path, op.expect);
  await appendLine(abs, op.line, op.path);
  return { path: op.path, id: op.id };
}
