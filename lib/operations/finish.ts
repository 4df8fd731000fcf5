import "server-only";
import type { ActionResult } from "@/lib/actions";
import { writeThenIngest } from "@/lib/ingest";
import { keyAtPath, recordAction } from "@/lib/journal";
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
 * (and of the message it became, when that is another key).
 */
export async function finish(
  t: Target,
  action: { kind: string; actor: string; to: string; touched: string[]; note?: string; archived?: string },
  write: () => Promise<void>,
): Promise<ActionResult> {
  await writeThenIngest(write, [t.relPath, ...action.touched].map((p) => absoluteFor(t.root, p)));
  const key = keyAtPath(t.root, action.to) ?? t.key;
  const detail = `${t.relPath} → ${action.to}${action.note ? ` ${action.note}` : ""} (from ${action.actor})`;
  for (const k of new Set([t.key, key])) recordAction(k, `${action.kind} by operator`, detail);
  return action.archived === undefined ? { key, path: action.to } : { key, path: action.to, archived: { key: t.key, path: action.archived } };
}
