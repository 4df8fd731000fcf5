// Taking back a bulk run of the dead-letters page, one letter at a time, as one row's Undo does
// (lib/client/message-action.ts): each action names the path the run left the file at, so a
// message its agent has moved on since is a 409 ("moved") that writes nothing, never archived
// from under the agent.
import type { BulkItemResult } from "@/lib/actions";
import { errorMessage } from "@/lib/client/fetcher";
import { postMessageAction, undoRequeue } from "@/lib/client/message-action";

export type UndoableAction = "requeue" | "discard";

/**
 * One letter of the run back where it was. A requeue is undone by discarding its requeued copy
 * (where the run put it), then restoring the letter; a copy that cannot be discarded leaves its
 * letter archived (the message lives on as the copy), and the failure says why.
 */
async function undoOne(action: UndoableAction, r: BulkItemResult): Promise<BulkItemResult> {
  try {
    if (action === "requeue") {
      // A bulk answer names no archived path: the letter is restored from wherever the journal has it.
      const letter = await undoRequeue({ key: r.newKey ?? r.key, path: r.path }, { key: r.key });
      return { key: r.key, ok: true, path: letter.path, plan: `the requeued copy archived, the dead letter back at ${letter.path}` };
    }
    const letter = await postMessageAction(r.newKey ?? r.key, "restore", { path: r.path });
    return { key: r.key, ok: true, path: letter.path, plan: `back at ${letter.path}` };
  } catch (err) {
    return { key: r.key, ok: false, error: { code: "undo_failed", message: errorMessage(err) } };
  }
}

/** Every letter the run acted on, in turn; the answer of each, keyed as the run's own results. */
export async function undoBulk(action: UndoableAction, results: readonly BulkItemResult[]): Promise<BulkItemResult[]> {
  const undone: BulkItemResult[] = [];
  for (const r of results) if (r.ok) undone.push(await undoOne(action, r));
  return undone;
}
