// Any action a message offers, as the message page runs it: the POST to the one actions route,
// then a sentence saying what happened (and an undo where there is one).
import type { ActionResult } from "@/lib/actions";
import type { ActionCheck, ActionDescriptor } from "@/lib/protocols/actions";
import { keys, routes } from "./keys";
import { postJson } from "./post-action";
import type { ActionOutcome } from "./use-action";

export interface ActionFields {
  to?: string;
  body?: string;
}

type Answer = ActionResult & { warnings?: string[] };

/** POST one action on one message; `check` names where the page saw it (a 409 when it moved since). */
export function postMessageAction(key: string, id: string, check: ActionCheck, fields: ActionFields = {}): Promise<Answer> {
  return postJson<Answer>(keys.messageAction(key, id), { ...check, ...fields });
}
const post = postMessageAction;

/**
 * A requeue of a dead letter taken back: its copy discarded where the requeue left it (a 409 when
 * its agent moved it on: the letter then stays archived), then the letter restored. The letter as restored.
 */
export async function undoRequeue(copy: { key: string; path?: string }, letter: { key: string; path?: string }): Promise<Answer> {
  await post(copy.key, "discard", { path: copy.path });
  return post(letter.key, "restore", { path: letter.path });
}

function sentence(action: Pick<ActionDescriptor, "id">, r: Answer, edited: boolean): string {
  switch (action.id) {
    case "requeue":
      return `Requeued${edited ? " with the edited body" : ""}: now ${r.path}.`;
    case "retry":
      return `Back in the queue for a retry: ${r.path}.`;
    case "discard":
      return `Discarded: moved to ${r.path}.`;
    case "restore":
      return `Restored to ${r.path}.`;
    case "mark-read":
    case "mark-unread":
      return `${action.id === "mark-read" ? "Marked read" : "Marked unread"} in ${r.path}.`;
    case "resend":
      return `Sent again: appended to ${r.path}.`;
    case "abort":
      return `Abort sent: appended to ${r.path}.`;
  }
}

const PENDING: Record<ActionDescriptor["id"], string> = {
  requeue: "Requeuing", retry: "Retrying", discard: "Discarding", restore: "Restoring",
  "mark-read": "Marking read", "mark-unread": "Marking unread", resend: "Resending", abort: "Sending the abort",
};

/** What the page says while the action runs ("Requeuing…"), and before "failed" when it does. */
export function pendingLabel(action: ActionDescriptor): string {
  return PENDING[action.id];
}

const RESTORE: ActionDescriptor = { id: "restore", verb: "Restore", input: "none", bulk: true };
const UNDO: Partial<Record<ActionDescriptor["id"], ActionDescriptor>> = {
  discard: RESTORE,
  "mark-read": { id: "mark-unread", verb: "Mark unread", input: "none", bulk: true },
  "mark-unread": { id: "mark-read", verb: "Mark read", input: "none", bulk: true },
};

/** Run `action` on the message; its outcome says what changed, links to where the message is now, and offers the undo. */
export async function messageActionOutcome(key: string, action: Pick<ActionDescriptor, "id">, check: ActionCheck, fields: ActionFields = {}): Promise<ActionOutcome> {
  const r = await post(key, action.id, check, fields);
  const warnings = r.warnings?.length ? ` ${r.warnings.join(" ")}` : "";
  const undo = UNDO[action.id];
  const { archived } = r;
  return {
    ok: true,
    text: `${sentence(action, r, fields.body !== undefined)}${warnings}`,
    href: routes.message(r.key),
    // The undo acts on the message where it is now, as that page would show it. A requeue that
    // archived its dead letter is undone by taking the copy out of the queue, then restoring the letter.
    undo:
      action.id === "requeue" && archived !== undefined
        ? { label: "Undo", run: () => unrequeueOutcome(r, archived) }
        : undo && { label: undo.verb === "Restore" ? "Restore" : "Undo", run: () => messageActionOutcome(r.key, undo, { path: r.path }) },
  };
}

async function unrequeueOutcome(requeued: ActionResult, archived: NonNullable<ActionResult["archived"]>): Promise<ActionOutcome> {
  const letter = await undoRequeue(requeued, archived);
  return { ok: true, text: `Requeue undone: the dead letter is back at ${letter.path}; the requeued copy is in the archive.`, href: routes.message(letter.key) };
}
