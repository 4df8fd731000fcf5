import "server-only";
// IGNITE v2's actions on an existing message, carried out by its writer (writer.ts): the plan is
// the dry run, `run` the write. The core checks the action is offered (actions.ts) first.
import type { ActionId, ActionInput, ActionSubject, PlannedAction } from "@/lib/protocols/actions";
import { ApiError } from "@/lib/server/api-error";
import { planDiscard, planRequeue, planRetry, run, type IgniteYamlOp } from "./writer";
import type { WritePlan } from "@/lib/protocols/write-kit";

function sentence(op: IgniteYamlOp): string {
  const from = op.source?.path ?? "";
  switch (op.action) {
    case "requeue":
      return op.archive ? `write the original message to ${op.target}, then move the dead letter to ${op.archive}` : `move ${from} back to ${op.target} as a fresh message`;
    case "retry":
      return `move ${from} back to ${op.target} as its next retry`;
    default:
      return `move ${from} to ${op.target}`;
  }
}

function planned(root: string, plan: WritePlan<IgniteYamlOp>): PlannedAction {
  const { op } = plan;
  return {
    description: sentence(op),
    path: op.target,
    touched: [op.source?.path, op.target, op.archive].filter((p): p is string => typeof p === "string"),
    bytes: plan.bytes,
    warnings: plan.warnings,
    ...(op.archive ? { archives: op.archive } : {}),
    run: () => run(root, plan),
  };
}

/** Plan one action on the message's file (nothing is written). */
export async function planAction(root: string, id: ActionId, m: ActionSubject, input: ActionInput): Promise<PlannedAction> {
  if (m.path === null) throw new ApiError(409, "source_gone", "The message's file is gone from disk; there is nothing to act on. Nothing was changed.");
  const base = { path: m.path, ...(input.expect ? { expect: input.expect } : {}) };
  switch (id) {
    case "requeue":
      return planned(root, await planRequeue(root, { ...base, to: input.to, body: input.body }));
    case "retry":
      return planned(root, await planRetry(root, base));
    case "discard":
      return planned(root, await planDiscard(root, base));
    case "restore":
      return planned(root, await planDiscard(root, base, true));
    default:
      throw new ApiError(409, "not_applicable", `IGNITE v2 messages have no action "${id}". Nothing was changed.`);
  }
}

