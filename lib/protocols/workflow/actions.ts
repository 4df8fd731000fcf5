// Which workflow actions a channel message offers: resend one its agent has not acked (the same
// line, same id, appended again: the tools' readers do not skip an id they read before, so it is
// delivered again, and refused once an ack is written), and abort the task a task_assign handed an
// agent (an abort message on its channel, which the agent must ack). Sending is compose's. Pure.
import type { ActionDescriptor, ActionSubject } from "@/lib/protocols/actions";
import { isRecord, str } from "@/lib/protocols/entry-kit";
import { placeWorkflow } from "./paths";

const RESEND: ActionDescriptor = { id: "resend", verb: "Resend", input: "none", bulk: true };
const SHARED_CHANNELS = new Set(["broadcast", "orchestrator"]);

/** The task a message is about (`payload.task_id`), or null. */
export function taskIdOf(m: Pick<ActionSubject, "data">): string | null {
  return isRecord(m.data) && isRecord(m.data.payload) ? str(m.data.payload.task_id) : null;
}

export function actionsFor(m: ActionSubject): ActionDescriptor[] {
  const place = m.path === null ? null : placeWorkflow(m.path);
  if (!place || place.role !== "channel" || !m.messageId) return [];
  const actions: ActionDescriptor[] = m.status === "unacked" ? [RESEND] : [];
  if (m.type === "task_assign" && !SHARED_CHANNELS.has(m.agent) && m.status !== "processed") {
    const task = taskIdOf(m);
    actions.push({
      id: "abort",
      verb: "Abort task",
      input: "none",
      bulk: false,
      confirm: `Send ${m.agent} an abort${task ? ` for ${task}` : ""}: the agent is told to stop this task and must ack it.`,
    });
  }
  return actions;
}
