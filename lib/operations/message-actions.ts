import "server-only";
// One door for every action on an existing message, whatever its protocol (issue 25 point 1): the
// action must be one the message offers (its protocol's `actionsFor`, as the detail lists them),
// the page's view must still hold (409), the write happens in ingest's turn so the journal shows
// it at once, and the action goes in the message's history. IGNITE v3's own four actions are
// planned by its adapter's `fileActions` and carried out by this folder's operations (by key, with
// their own history lines), the other protocols' by their writers.
import type { ActionResult } from "@/lib/actions";
import { writeThenIngest } from "@/lib/ingest";
import { getMessage, keyAtPath, locateMessage, messageLocator, recordAction } from "@/lib/journal";
import type { MessageDetail } from "@/lib/model";
import { PROTOCOL_ACTIONS } from "@/lib/protocols";
import type { ActionCheck, ActionDescriptor, ActionId, PlannedAction } from "@/lib/protocols/actions";
import { ApiError } from "@/lib/server/errors";
import { planDiscard, planRestore } from "./discard";
import type { Plan } from "./finish";
import { absoluteFor } from "./paths";
import { planRequeue } from "./requeue";
import { planRetry } from "./retry";

export interface ActionRequest extends ActionCheck {
  to?: string;
  body?: string;
  actor: string;
}

/** A plan with what a dry run shows: the file written and its bytes, and warnings, where the protocol's writer says. */
export interface ActionPlan extends Plan {
  path?: string;
  bytes?: string;
  warnings: string[];
}

/** IGNITE v3's four, by key, as the alias routes run them. */
export function planIgniteAction(id: ActionId, key: string, req: ActionRequest): Promise<Plan> {
  const base = { actor: req.actor, ...(req.path !== undefined ? { path: req.path } : {}) };
  switch (id) {
    case "requeue":
      return planRequeue(key, { ...base, to: req.to, body: req.body });
    case "retry":
      return planRetry(key, base);
    case "discard":
      return planDiscard(key, base);
    case "restore":
      return planRestore(key, base);
    default:
      throw new ApiError(409, "not_applicable", `IGNITE messages have no action "${id}". Nothing was changed.`);
  }
}

function offered(m: MessageDetail, id: ActionId): ActionDescriptor {
  const action = m.actions.find((a) => a.id === id);
  if (action) return action;
  const offers = m.actions.length ? `it offers ${m.actions.map((a) => a.verb).join(", ")}` : "it offers no action";
  throw new ApiError(409, "not_applicable", `"${id}" is not an action on this message now (it is ${m.status} in ${m.folder}/; ${offers}). Nothing was changed.`);
}

/** A 400 naming the field an action does not take (a queue or body given to one that takes none). */
function assertTakes(action: ActionDescriptor, req: ActionRequest): void {
  if (req.to !== undefined && action.input === "none") throw new ApiError(400, "bad_request", `to: ${action.verb} takes no queue`);
  if (req.body !== undefined && action.input !== "queue+body") throw new ApiError(400, "bad_request", `body: ${action.verb} takes no body`);
}

/** The page's view, checked before planning: the message is still at the path it showed. */
function assertAt(m: MessageDetail, shown: string | undefined): void {
  if (shown === undefined || m.path === shown) return;
  throw new ApiError(
    409,
    m.path === null ? "source_gone" : "moved",
    m.path === null
      ? `${shown} is gone since the page loaded (the message is now ${m.status}). Nothing was changed.`
      : `The message moved since the page loaded: it was at ${shown} and is now at ${m.path}. Reload and try again; nothing was changed.`,
  );
}

function entryPlan(m: MessageDetail, root: string, id: ActionId, planned: PlannedAction, actor: string): ActionPlan {
  return {
    key: m.key,
    description: planned.description,
    path: planned.path,
    bytes: planned.bytes,
    warnings: planned.warnings,
    async run(): Promise<ActionResult> {
      const done = await writeThenIngest(() => planned.run(), planned.touched.map((p) => absoluteFor(root, p)));
      // One entry of a many-entry file keeps its key; a file moved is another path's message. A dead
      // letter's requeued original goes on under the original's key: its agents may have moved it on
      // before this looks (the demo's monitor did), and the letter's own key is no answer for it.
      const moved = keyAtPath(root, done.path) ?? (planned.archives !== undefined ? m.deadLetterOf : null);
      const key = done.path === m.path ? m.key : (moved ?? m.key);
      for (const k of new Set([m.key, key])) recordAction(k, `${id} by operator`, `${planned.description} (from ${actor})`);
      // What was archived beside the move (a requeued dead letter) is named, for the undo to restore it.
      const archived = planned.archives === undefined ? null : { key: keyAtPath(root, planned.archives), path: planned.archives };
      return { key, path: done.path, ...(archived?.key ? { archived: { key: archived.key, path: archived.path } } : {}) };
    },
  };
}

/**
 * Check and plan one action on one message (nothing is written): a 404 for an unknown key, a 409
 * when the message does not offer it now or changed since the page loaded, a 400 naming a field
 * it does not take. `inBulk`: one of a list (POST /api/bulk), whose `to` is shared by every key:
 * only an action its protocol offers on a list, and a field the action does not take (a queue for
 * Discard) is left out, not refused.
 */
export async function planMessageAction(key: string, id: ActionId, req: ActionRequest, inBulk = false): Promise<ActionPlan> {
  const m = await getMessage(key);
  const loc = m && locateMessage(key);
  if (!m || !loc) throw new ApiError(404, "not_found", `no message has the key "${key}"`);
  const action = offered(m, id);
  // An abort (its protocol asks to confirm each) is not sent to a list at once.
  if (inBulk && !action.bulk) throw new ApiError(409, "not_applicable", `${action.verb} is not offered on a list of messages: do it from this message's page. Nothing was changed.`);
  if (!inBulk) assertTakes(action, req);
  const forAction = { ...req, ...(action.input === "none" ? { to: undefined } : {}), ...(action.input !== "queue+body" ? { body: undefined } : {}) };
  const { planAction } = PROTOCOL_ACTIONS[m.protocol];
  if (!planAction) return { ...(await planIgniteAction(id, key, forAction)), warnings: [] };
  // A dead original (its file gone) is acted on through the dead letter that holds it (its detail's
  // heldBy), as IGNITE v3's requeue is (requeue.ts): the letter offers the same action on the same message.
  if (m.path === null && req.path === undefined && m.heldBy) return planMessageAction(m.heldBy, id, req, inBulk);
  assertAt(m, req.path);
  const planned = await planAction(loc.root, id, { ...m, locator: messageLocator(key) }, { to: forAction.to, body: forAction.body, expect: req.expect });
  return entryPlan(m, loc.root, id, planned, req.actor);
}
