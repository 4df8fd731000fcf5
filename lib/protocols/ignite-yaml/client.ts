// IGNITE v2 (YAML)'s pure face: the read side's pure part, for code that runs where the index
// cannot be loaded (client components, ingest's worker threads) and for IGNITE v3, whose queue
// monitor converts a v2 message it finds in a v3 queue (until then, that file is read as the v2
// message it is); and the compose form's request schema (the server parses the same), fields and
// answer to a message.
import { z } from "zod";
import type { MessageDetail } from "@/lib/model";
import { templateOf, type ComposeFormSpec } from "@/lib/protocols/compose-spec";
import { bodyField, nameField } from "@/lib/protocols/fields";
import { isRecord } from "@/lib/protocols/entry-kit";
import { parseBodyYaml } from "@/lib/protocols/bounded-yaml";
import { scalar } from "./lifecycle";

export { read } from "./read";
export { placeIgniteYaml } from "./paths";

export const PRIORITY = z.enum(["high", "normal", "low", "critical"], { error: "must be high, normal, low or critical" });

/** The payload: a YAML mapping (key: value lines) nested under `payload:`, or nothing. */
export const payloadField = bodyField.superRefine((v, ctx) => {
  if (v.trim() === "") return;
  const parsed = parseBodyYaml(v);
  if (parsed.error) ctx.addIssue({ code: "custom", message: parsed.error });
  else if (!isRecord(parsed.data)) ctx.addIssue({ code: "custom", message: "must be a YAML mapping (key: value lines)" });
});

export const igniteYamlComposeSchema = z
  .object({ protocol: z.literal("ignite-yaml"), from: nameField, to: nameField, type: nameField, priority: PRIORITY, payload: payloadField })
  .strict();

export const IGNITE_YAML_FORM: ComposeFormSpec = {
  protocol: "ignite-yaml",
  sendNote: "One new file in the recipient's queue",
  fields: [
    { name: "from", label: "From", kind: "line", options: "agents" },
    { name: "to", label: "To", kind: "line", options: "agents", hint: "The agent whose queue/<agent>/ gets the file." },
    { name: "type", label: "Type", kind: "line", options: "types" },
    { name: "priority", label: "Priority", kind: "line", options: "priorities" },
    { name: "payload", label: "Payload (YAML)", kind: "text", hint: "Key: value lines, nested under payload: as the v2 tools write it." },
  ],
  // The payloads start from IGNITE v3's templates, which the server hands the form (`words`).
  template: { typeField: "type", bodyField: "payload", of: (type, lists) => templateOf(lists?.words, type) },
  initial: ({ agents, words }) => ({ from: "user", to: agents.includes("leader") ? "leader" : "", type: "user_goal", priority: "normal", payload: templateOf(words, "user_goal") ?? "" }),
  replyNote: "To the sender, from its recipient, carrying its task_id when it has one.",
  /** To the sender, from the recipient, carrying the original's task_id (as the writer's reply does). */
  reply(m: MessageDetail) {
    const to = m.from;
    const from = m.to[0] ?? m.agent;
    if (!to) return null;
    const payload = isRecord(m.data) && isRecord(m.data.payload) ? m.data.payload : {};
    const taskId = typeof payload.task_id === "string" ? `task_id: ${scalar(payload.task_id)}\n` : "";
    return { from, to, type: "progress_update", priority: m.priority && PRIORITY.safeParse(m.priority).success ? m.priority : "normal", payload: taskId };
  },
  schema: igniteYamlComposeSchema,
};
