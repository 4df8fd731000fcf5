// KickLang's pure face for the compose form: the envelope request's schema (the server parses the
// same), the Space Format and role rules as you type, the form's fields and the answer to an
// envelope. Safe for client components.
import { z } from "zod";
import type { MessageDetail } from "@/lib/model";
import type { ComposeFormSpec } from "@/lib/protocols/compose-spec";
import { bodyField, lineField } from "@/lib/protocols/fields";
import { channelToPath } from "./channels";

export const ORCHESTRATOR = "Orchestrator";
export const KICKLANG_TYPES = ["Command", "Query", "Info", "Alert"] as const;
/** The types that ask for an answer: a response carries the request's own id as its correlation id (rule 3). */
export const REQUEST_TYPES: ReadonlySet<string> = new Set(["Command", "Query"]);

/** The correlation id an answer to `m` carries: a request's own id (a Query inside a thread too), else its thread's (its correlation id, else its id). */
export function answerCorrelation(m: { id: string | null; type: string | null; correlationId: string | null }): string | null {
  return m.type !== null && REQUEST_TYPES.has(m.type) ? m.id : (m.correlationId ?? m.id);
}
/** "⫻name/type:place/index", then the lines of the message. */
export const SPACE_FORMAT = /^⫻[^\s:/]+\/[^\s:]+:[^\s/]+\/\S+$/;
export const SPACE_FORMAT_PROBLEM = 'The content is not a Space Format string ("⫻name/type:place/index", then lines).';

export function spaceFormatProblem(content: string): string | null {
  const head = content.split("\n", 1)[0] ?? "";
  if (SPACE_FORMAT.test(head)) return null;
  // Pasted from a Windows editor: the head is right but for its line ending, which nothing else shows.
  if (head.endsWith("\r") && SPACE_FORMAT.test(head.slice(0, -1))) return `${SPACE_FORMAT_PROBLEM.slice(0, -1)}: its first line ends in a carriage return (CRLF line endings); Space Format lines end in a line feed alone.`;
  return SPACE_FORMAT_PROBLEM;
}

/** The role rule: only the Orchestrator sends on `⫻command/*`. */
export function roleRuleProblem(channel: string, sender: string): string | null {
  return channel.startsWith("⫻command/") && sender !== ORCHESTRATOR ? `Only the ${ORCHESTRATOR} sends on ⫻command/ channels; ${sender} is not the ${ORCHESTRATOR}.` : null;
}

/** A channel Mailroom can store, inside `.kicklang/channels/` (a `.` or `..` part would name a folder outside it). */
export const channelField = lineField.superRefine((c, ctx) => {
  if (c.slice(1).split("/").some((p) => p === "." || p === "..")) ctx.addIssue({ code: "custom", message: 'must not have a "." or ".." part: a channel stays inside .kicklang/channels/' });
  else if (channelToPath(c) === null) ctx.addIssue({ code: "custom", message: 'is not a channel name Mailroom can store: "⫻name/…", parts without control characters, at most 240 bytes each' });
});
export const typeField = z.enum(KICKLANG_TYPES, { error: "must be Command, Query, Info or Alert" });
export const contentField = bodyField.superRefine((v, ctx) => {
  const problem = spaceFormatProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const kicklangComposeSchema = z
  .object({ protocol: z.literal("kicklang"), sender: lineField, receiver: lineField, type: typeField, channel: channelField, content: contentField, correlationId: lineField.optional() })
  .strict();

/** Where an answer goes: a command's on `⫻report/status` (agents report there), anything else on its own channel. */
function answerChannel(channel: string, sender: string): string {
  return roleRuleProblem(channel, sender) ? "⫻report/status" : channel;
}

export const KICKLANG_FORM: ComposeFormSpec = {
  protocol: "kicklang",
  sendNote: "One envelope (a JSON line) appended to the channel's file",
  fields: [
    { name: "sender", label: "Sender", kind: "line", options: [ORCHESTRATOR], hint: "The sending role (names may hold spaces)." },
    { name: "receiver", label: "Receiver", kind: "line", options: ["Broadcast"], hint: "A role, or Broadcast." },
    { name: "type", label: "Type", kind: "line", options: KICKLANG_TYPES },
    { name: "channel", label: "Channel", kind: "line", options: "agents", placeholder: "⫻report/status" },
    { name: "correlationId", label: "Correlation id", kind: "line", optional: true, hint: "The id of the request this answers (a reply keeps it)." },
    { name: "content", label: "Content (Space Format)", kind: "text", hint: "⫻name/type:place/index on the first line, then the message." },
  ],
  initial: ({ agents: channels }) => ({
    sender: ORCHESTRATOR, receiver: "", type: "Command", channel: channels.includes("⫻command/dispatch") ? "⫻command/dispatch" : "", correlationId: "",
    content: "⫻command/dispatch:task/001\n",
  }),
  replyNote: "Sender and receiver swapped. The correlation id answers a request (a Command or Query: its own id) and keeps anything else in its thread. An answer to a command goes on ⫻report/status.",
  /** Back to the sender, sender and receiver swapped, answering it (see answerCorrelation). */
  reply(m: MessageDetail) {
    const channel = m.agent;
    const sender = m.to[0];
    const correlationId = answerCorrelation({ id: m.messageId, type: m.type, correlationId: m.correlationId });
    if (!m.from || !sender || !correlationId) return null;
    const on = answerChannel(channel, sender);
    const head = spaceFormatProblem(`${on}:reply/001`) ? "⫻report/status:reply/001" : `${on}:reply/001`;
    return { sender, receiver: m.from, type: "Info", channel: on, correlationId, content: `${head}\n` };
  },
  warning: (values) => roleRuleProblem((values.channel ?? "").trim(), (values.sender ?? "").trim()),
  schema: kicklangComposeSchema,
};
