// IGNITE v3's reading of a message's life: which step moved it between two observations, and where
// a dead letter's original lived (docs/protocols/ignite-mime.md "Where files live"). Pure.
import type { DeadLetterInfo, DeadLetterOriginal, LifecycleStep, ObservedPlace, Placement } from "@/lib/protocols/types";
import { DEAD_LETTER, unarchivePathOf } from "./paths";

/** The queue monitor writes `<name>.mime` beside the v2 `<name>.yaml` it converts, then removes that. */
export function igniteReplacedPath(relPath: string): string | null {
  return relPath.endsWith(".mime") ? `${relPath.slice(0, -5)}.yaml` : null;
}

/** Name the step between two observations of one message; null for a plain move. */
export function igniteLifecycleStep(before: ObservedPlace, after: ObservedPlace): LifecycleStep | null {
  // The queue monitor converts a v2 (YAML) message it finds in a v3 queue into MIME, same name.
  if (before.path !== null && after.path !== null && igniteReplacedPath(after.path) === before.path) {
    return { kind: "converted", how: "from IGNITE v2 (YAML) to MIME by the queue monitor" };
  }
  // A dead letter archived by a requeue was not discarded: its move (and the operator's requeue) says what happened.
  if (after.folder === "archive") return after.status === "requeued" ? null : { kind: "discarded" };
  if (before.folder === "archive") return { kind: "restored" };
  // Dead, or discarded with its dead letter (archived before the requeued file was seen).
  if ((before.status === "dead" || before.status === "discarded") && before.path === null) return { kind: "requeued" };
  if (before.folder === "processed" && after.folder === "queue" && after.status === "retrying") return { kind: "retried" };
  return null;
}

/**
 * Where a dead letter's original was before it was dead-lettered: `processed/` of the queue it was
 * bound for, under the runtime directory the letter is in (the queue's, though the letter is now
 * archived). Archived, the letter was requeued or discarded by an operator: its message is not dead.
 * Requeued (the letter bears the requeue's mark), the message went on as the copy: seen only through
 * its letter, that copy is gone, handled, as v2's statuses.ts reads the same lifecycle.
 */
export function igniteDeadLetterOriginal(letter: { relPath: string; placement: Placement; status?: string }, dl: DeadLetterInfo): DeadLetterOriginal | null {
  if (!dl.originalAgent) return null;
  const archived = letter.placement.folder === "archive";
  const letterPath = (archived ? unarchivePathOf(letter.relPath) : null) ?? letter.relPath;
  const relPath = letterPath.replace(new RegExp(`${DEAD_LETTER}/[^/]+$`), `${dl.originalAgent}/processed/${dl.originalFile ?? "unknown.mime"}`);
  const status = !archived ? "dead" : letter.status === "requeued" ? "completed" : "discarded";
  return { relPath, placement: { agent: dl.originalAgent, folder: "processed" }, status };
}
