// multi-agent-workflow's pure face for the compose form: the send request's schema (the server
// parses the same), the form's fields and the answer to a message. Safe for client components.
import { z } from "zod";
import type { MessageDetail } from "@/lib/model";
import type { ComposeFormSpec } from "@/lib/protocols/compose-spec";
import { nameField } from "@/lib/protocols/fields";
import { MAX_BODY_BYTES, utf8Bytes } from "@/lib/operations/compose-schema";

export const WORKFLOW_TYPES = ["task_assign", "task_complete", "progress_update", "checkpoint_request", "checkpoint_response", "broadcast", "heartbeat", "abort"] as const;
/** The tools set `requires_ack` for these types only. */
export const ACKED_TYPES: readonly string[] = ["task_assign", "checkpoint_request", "abort"];

/** A JSON object, or its text (checked: valid JSON, an object, at most 1 MiB). */
export const payloadField = z
  .union([z.string(), z.record(z.string(), z.unknown())], { error: "must be a JSON object (or its text)" })
  .transform((v, ctx) => {
    if (typeof v !== "string") return v;
    if (utf8Bytes(v) > MAX_BODY_BYTES) return (ctx.addIssue({ code: "custom", message: "is over 1 MiB" }), z.NEVER);
    try {
      const parsed: unknown = JSON.parse(v.trim() === "" ? "{}" : v);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      ctx.addIssue({ code: "custom", message: "must be a JSON object, not an array or a single value" });
    } catch (err) {
      ctx.addIssue({ code: "custom", message: `is not valid JSON: ${err instanceof Error ? err.message : String(err)}` });
    }
    return z.NEVER;
  });

/** `to` is an agent id, `orchestrator` or `broadcast`; the file follows from it. */
export const workflowComposeSchema = z
  .object({ protocol: z.literal("workflow"), workflow: nameField, to: nameField, from: nameField, type: nameField, payload: payloadField })
  .strict();

const TEMPLATES: Record<string, object> = {
  task_assign: { task_id: "task_001", description: "", context: {} },
  task_complete: { task_id: "task_001", result: { summary: "" } },
  progress_update: { task_id: "task_001", progress: 50, message: "" },
  checkpoint_request: { task_id: "task_001", question: "" },
  checkpoint_response: { task_id: "task_001", decision: "approve", notes: "" },
  broadcast: { message: "" },
  abort: { task_id: "task_001", reason: "" },
};

const pretty = (v: object) => JSON.stringify(v, null, 2);

/** `.claude/workflow/<id>/…` → `<id>`. */
function workflowOf(path: string | null): string {
  return /^\.claude\/workflow\/([^/]+)\//.exec(path ?? "")?.[1] ?? "";
}

/** A request's natural answer: an assignment is completed, a checkpoint answered; anything else gets progress. */
const ANSWERS: Record<string, string> = { task_assign: "task_complete", checkpoint_request: "checkpoint_response" };

export const WORKFLOW_FORM: ComposeFormSpec = {
  protocol: "workflow",
  sendNote: "One JSON line appended to the channel",
  fields: [
    { name: "workflow", label: "Workflow", kind: "line", options: "workflows", hint: "The workflow id (its folder under .claude/workflow/)." },
    { name: "to", label: "To", kind: "line", options: "agents", hint: "An agent id, orchestrator, or broadcast (everyone)." },
    { name: "from", label: "From", kind: "line", options: "agents" },
    { name: "type", label: "Type", kind: "line", options: WORKFLOW_TYPES, hint: `requires_ack is set for ${ACKED_TYPES.join(", ")}.` },
    { name: "payload", label: "Payload (JSON)", kind: "text" },
  ],
  template: { typeField: "type", bodyField: "payload", of: (type) => (TEMPLATES[type] ? pretty(TEMPLATES[type]) : null) },
  initial: ({ workflows }) => ({ workflow: workflows.at(-1) ?? "", to: "", from: "orchestrator", type: "task_assign", payload: pretty(TEMPLATES.task_assign ?? {}) }),
  replyNote: "To the sender, in the same workflow and about the same task; the type is the usual answer.",
  /** To the sender (an agent or the orchestrator), in the same workflow, about the same task. */
  reply(m: MessageDetail) {
    const workflow = workflowOf(m.path);
    if (!m.from || !workflow) return null;
    const own = m.to.find((t) => t !== "broadcast");
    const data = m.data !== null && typeof m.data === "object" && !Array.isArray(m.data) ? m.data : {};
    const payload = data.payload !== null && typeof data.payload === "object" && !Array.isArray(data.payload) ? data.payload : {};
    const type = ANSWERS[m.type ?? ""] ?? "progress_update";
    const body = { ...(TEMPLATES[type] ?? {}), ...(typeof payload.task_id === "string" ? { task_id: payload.task_id } : {}) };
    return { workflow, to: m.from, from: own ?? "orchestrator", type, payload: pretty(body) };
  },
  schema: workflowComposeSchema,
};
