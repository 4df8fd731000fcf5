import "server-only";
import type { ActionResult } from "@/lib/actions";
import { writeThenIngest } from "@/lib/ingest";
import { keyAtPath, recordAction } from "@/lib/journal";
import { adapterFor } from "@/lib/protocols";
import type { ActionId } from "@/lib/protocols/actions";
import { ApiError } from "@/lib/server/errors";
import { absoluteFor } from "./paths";
import type { Target } from "./target";

/** A checked action: what it will do, and the writes that do it. Planning never writes. */
export interface Plan {
  key: string;
  /** One sentence: what will happen to which files. */
  description: string;
  run(): Promise<ActionResult>;
}

/** Who asked: the request's Origin (or Host), for the message's history. */
export interface Actor {
  actor: string;
}

/**
 * Make the writes in ingest's turn and have it look at every touched path right after (so no
 * file event sees a move half done), then put the action in the history of the message acted on
 * (and of the message it became, when that is another key). `write` may resolve to what the
 * history adds to the move (known only once written, e.g. a retry's drawn backoff).
 */
export async function finish(
  t: Target,
  action: { kind: string; actor: string; to: string; touched: string[]; note?: string; archived?: string },
  write: () => Promise<string | void>,
): Promise<ActionResult> {
  const written = await writeThenIngest(write, [t.relPath, ...action.touched].map((p) => absoluteFor(t.root, p)));
  const note = written || action.note;
  const key = keyAtPath(t.root, action.to) ?? t.key;
  const detail = `${t.relPath} → ${action.to}${note ? ` ${note}` : ""} (from ${action.actor})`;
  for (const k of new Set([t.key, key])) recordAction(k, `${action.kind} by operator`, detail);
  return action.archived === undefined ? { key, path: action.to } : { key, path: action.to, archived: { key: t.key, path: action.archived } };
}

/**
 * Plan an action on the target's own file through its protocol's adapter (which says where the file
 * goes and what is written; nothing is written before `run`), journaled by `finish`.
 * `heldAgent`: for a dead letter, the queue its original failed in, as the journal saw it.
 */
export async function planOnFile(t: Target, id: ActionId, input: { to?: string; body?: string }, actor: string, heldAgent: string | null = null): Promise<Plan> {
  const actions = adapterFor(t.summary.protocol)?.fileActions;
  if (!actions) throw new ApiError(409, "unsupported", `Mailroom does not change ${t.summary.protocol} messages by file. Nothing was changed.`);
  const { folder, status, agent } = t.summary;
  const planned = await actions.plan(id, { root: t.root, relPath: t.relPath, abs: t.abs, folder, status, agent, heldAgent }, input);
  return {
    key: t.key,
    description: planned.description,
    run: () => finish(t, { kind: id, actor, to: planned.path, touched: planned.touched, archived: planned.archived }, planned.run),
  };
}
