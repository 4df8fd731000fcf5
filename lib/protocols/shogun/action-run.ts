import "server-only";
// shogun's actions on an existing inbox message, carried out by its writer under the inbox locks
// (writer.ts, lock.ts): the plan is the dry run, `run` the locked replace.
import type { ActionId, ActionInput, ActionSubject, PlannedAction } from "@/lib/protocols/actions";
import { ApiError } from "@/lib/server/errors";
import { planMark, run } from "./writer";

/** Plan one action on the message (nothing is written). */
export async function planAction(root: string, id: ActionId, m: ActionSubject, input: ActionInput): Promise<PlannedAction> {
  if ((id !== "mark-read" && id !== "mark-unread") || !m.messageId) {
    throw new ApiError(409, "not_applicable", `shogun inbox messages have no action "${id}". Nothing was changed.`);
  }
  const read = id === "mark-read";
  const plan = await planMark(root, { agent: m.agent, ids: [m.messageId], read, ...(input.expect ? { expect: input.expect } : {}) });
  return {
    description: `mark ${m.messageId} ${read ? "read" : "unread"} in ${plan.path}, under the inbox's locks`,
    path: plan.path,
    touched: [plan.path],
    bytes: plan.bytes,
    warnings: plan.warnings,
    run: () => run(root, plan),
  };
}
