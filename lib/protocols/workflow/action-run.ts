import "server-only";
// workflow's actions on an existing channel message, carried out by its writer (writer.ts): one
// compact JSON line appended with one O_APPEND write. The plan is the dry run, `run` the append.
import type { ActionId, ActionInput, ActionSubject, PlannedAction } from "@/lib/protocols/actions";
import type { WritePlan } from "@/lib/protocols/write-kit";
import { ApiError } from "@/lib/server/errors";
import { taskIdOf } from "./actions";
import { placeWorkflow } from "./paths";
import { planAbort, planResend, run, type WorkflowOp } from "./writer";

function planned(root: string, description: string, plan: WritePlan<WorkflowOp>): PlannedAction {
  return { description, path: plan.path, touched: [plan.path], bytes: plan.bytes, warnings: plan.warnings, run: () => run(root, plan) };
}

/** Plan one action on the message (nothing is written). */
export async function planAction(root: string, id: ActionId, m: ActionSubject, input: ActionInput): Promise<PlannedAction> {
  const place = m.path === null ? null : placeWorkflow(m.path);
  if (!place || !m.messageId) throw new ApiError(409, "not_applicable", "This is not a message on a workflow channel; nothing was changed.");
  const expect = input.expect ? { expect: input.expect } : {};
  if (id === "resend") {
    const plan = await planResend(root, { workflowId: place.workflowId, to: m.agent, id: m.messageId, ...expect });
    return planned(root, `append ${m.messageId} again to ${plan.path}`, plan);
  }
  if (id === "abort") {
    const taskId = taskIdOf(m);
    // The abort goes on the agent's own channel, whose size the page saw: so the same `expect`.
    const plan = await planAbort(root, { workflowId: place.workflowId, agent: m.agent, ...(taskId ? { taskId } : {}), ...expect });
    return planned(root, `append an abort${taskId ? ` of ${taskId}` : ""} for ${m.agent} to ${plan.path}`, plan);
  }
  throw new ApiError(409, "not_applicable", `workflow messages have no action "${id}". Nothing was changed.`);
}
