// IGNITE v2 statuses: the same words as IGNITE v3, set by the folder a file sits in. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";
import { IGNITE_CATALOG } from "@/lib/protocols/ignite/catalog";

const V2_WORDS = ["queued", "retrying", "processing", "delivered", "completed", "dead", "discarded", "requeued"];

/** v3's definitions of the words v2 shares, so a status reads and looks the same in both. */
export const STATUSES: readonly StatusDefinition[] = IGNITE_CATALOG.statuses.filter((s) => V2_WORDS.includes(s.id));

/** Statuses a message leaves behind when its agent deletes its file: it was handled. */
const HANDLED_WHEN_GONE = new Set(["queued", "retrying", "processing", "delivered"]);

/**
 * A message's status comes from its own file (its folder) while the file is there. Once gone: dead
 * while a dead letter in dead_letter/ holds it, discarded when only an archived one does (not one a requeue archived), else
 * completed (its agent deleted it), as IGNITE v3 reads the same lifecycle.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  const heldBy = new Map<string, string>();
  for (const e of entries) {
    if (e.gone) continue;
    for (const link of e.links) {
      // A letter a requeue archived holds nothing any more: its message lives on in the requeued file.
      if (link.kind === "holds" && e.status !== "requeued" && heldBy.get(link.targetId) !== "dead_letter") heldBy.set(link.targetId, e.folder);
    }
  }
  return entries.map((e) => {
    if (!e.gone || e.kind !== "message" || e.folder === "dead_letter") return e;
    const holder = e.messageId ? heldBy.get(e.messageId) : undefined;
    const status = holder === "dead_letter" ? "dead" : holder === "archive" ? "discarded" : HANDLED_WHEN_GONE.has(e.status) ? "completed" : e.status;
    return status === e.status ? e : { ...e, status, dueAt: null };
  });
}
