import "server-only";
import type { RequeueInput } from "@/lib/actions";
import { deadLetterHolding, locateMessage } from "@/lib/journal";
import { catalogOf } from "@/lib/protocols";
import { assertSendableBody } from "./content";
import { planOnFile, type Actor, type Plan } from "./finish";
import { locateTarget, type Target } from "./target";

export type RequeueRequest = RequeueInput & Actor;

/** A dead original (its file gone) is requeued through the dead letter that holds it. */
function resolveKey(key: string, req: RequeueRequest): string {
  if (req.path !== undefined) return key;
  const loc = locateMessage(key);
  if (!loc || loc.path !== null || catalogOf(loc.summary.protocol).deadLetterStatus !== loc.summary.status) return key;
  return deadLetterHolding(key) ?? key;
}

/** The queue a dead letter's original failed in, as the journal saw it (its protocol checks it is one). */
function heldQueueOf(t: Target): string | null {
  const held = t.summary.deadLetterOf === null ? null : locateMessage(t.summary.deadLetterOf);
  return held?.summary.agent ?? null;
}

/**
 * Check a requeue and say what it will do (nothing is written until `run`): a dead letter's
 * original back to its queue (the dead letter archived), or a message stuck, processing or
 * failed back to its queue as a fresh message, optionally with an edited body.
 */
export async function planRequeue(key: string, req: RequeueRequest): Promise<Plan> {
  if (req.body !== undefined) assertSendableBody(req.body);
  const t = await locateTarget(resolveKey(key, req), req.path);
  return planOnFile(t, "requeue", { to: req.to, body: req.body }, req.actor, heldQueueOf(t));
}

export async function requeueMessage(key: string, req: RequeueRequest) {
  return (await planRequeue(key, req)).run();
}
