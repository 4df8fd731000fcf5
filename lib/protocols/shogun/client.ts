// shogun's pure face for the compose form: the send request's schema (the server parses the same),
// the form's fields, and the answer to a message. No filesystem: safe for client components.
import { z } from "zod";
import type { MessageDetail } from "@/lib/model";
import type { ComposeFormSpec } from "@/lib/protocols/compose-spec";
import { bodyField, nameField } from "@/lib/protocols/fields";

/** The types the tools send (open-ended: forks add their own). */
export const SHOGUN_TYPES = ["cmd_new", "task_assigned", "report_received", "wake_up", "clear_command", "model_switch", "cli_restart"] as const;
export const SHOGUN_INBOX_WARNING = "Nothing is to be sent to the shogun's inbox; karo reports through dashboard.md.";

/** inbox_write.sh refuses an empty content (`[ -z "$CONTENT" ]`: its usage, exit 1); one of spaces says nothing either. */
const contentField = bodyField.refine((v) => v.trim() !== "", { error: "is empty: inbox_write.sh refuses a message without content" });

/** `to`, `from`, `type`, `content`, as inbox_write.sh takes them. */
export const sendFields = { to: nameField, from: nameField, type: nameField, content: contentField };
const notToSelf = <T extends { to: string; from: string }>(v: T) => v.to !== v.from;
const SELF = { path: ["from"], message: "is the recipient: inbox_write.sh refuses a message to oneself" };

export const shogunComposeSchema = z.object({ protocol: z.literal("shogun"), ...sendFields }).strict().refine(notToSelf, SELF);
export const refusesSelf = { check: notToSelf, issue: SELF };

export function shogunWarning(to: string): string | null {
  return to.trim() === "shogun" ? SHOGUN_INBOX_WARNING : null;
}

export const SHOGUN_FORM: ComposeFormSpec = {
  protocol: "shogun",
  sendNote: "One new message in the recipient's inbox, under its locks",
  fields: [
    { name: "to", label: "To", kind: "line", options: "agents", hint: "The agent whose inbox (queue/inbox/<agent>.yaml) gets it." },
    { name: "from", label: "From", kind: "line", options: "agents" },
    { name: "type", label: "Type", kind: "line", options: SHOGUN_TYPES, hint: "A type the agents know, or your own." },
    { name: "content", label: "Content", kind: "text", hint: "Free text; it may span lines." },
  ],
  initial: ({ agents }) => ({ to: agents.includes("karo") ? "karo" : "", from: "shogun", type: "cmd_new", content: "" }),
  replyNote: "To the sender's inbox, from the agent whose inbox held it; the type is the original's (a task is answered with report_received).",
  /** To the sender's inbox, from the inbox (or queue) it sits in. A task is answered as upstream's workers do, with a report_received to karo. */
  reply: (m: MessageDetail) => (m.from ? { to: m.from, from: m.agent, type: m.type === "task" ? "report_received" : (m.type ?? "wake_up"), content: "" } : null),
  warning: (values) => shogunWarning(values.to ?? ""),
  schema: shogunComposeSchema,
};
