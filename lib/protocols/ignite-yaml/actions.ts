// Which IGNITE v2 actions a message offers, by the folder its file is in (as IGNITE v3's): a dead
// letter is requeued (its original, as is or edited, to its queue or another) or discarded; a
// message stuck in processed/ is requeued, retried now or discarded; an archived one restored. Pure.
import type { ActionDescriptor, ActionSubject } from "@/lib/protocols/actions";
import { parseYamlFile } from "@/lib/protocols/bounded-yaml";
import { isRecord, str } from "@/lib/protocols/entry-kit";
import { ARCHIVE_PARTS, DEAD_LETTER } from "./paths";

const RETRY: ActionDescriptor = { id: "retry", verb: "Retry now", input: "none", bulk: true };
const DISCARD: ActionDescriptor = { id: "discard", verb: "Discard", input: "none", bulk: true };
const RESTORE: ActionDescriptor = { id: "restore", verb: "Restore", input: "none", bulk: true };
const requeue = (queue: string | null, body: string): ActionDescriptor => ({ id: "requeue", verb: "Requeue", input: "queue+body", bulk: true, queue, body });

/** The dead letter's `original_message` text and the queue it names (`to`), or nulls. */
function originalOf(letterText: string): { text: string | null; to: string | null } {
  const letter = parseYamlFile(letterText).data;
  const text = isRecord(letter) && typeof letter.original_message === "string" ? letter.original_message : null;
  const original = text === null ? null : parseYamlFile(text).data;
  return { text, to: isRecord(original) ? str(original.to) : null };
}

export function actionsFor(m: ActionSubject): ActionDescriptor[] {
  // A dead original (its file gone): requeued through the one dead letter that holds it (heldBy), as IGNITE v3's.
  if (m.path === null) return m.status === "dead" && m.heldBy ? [requeue(m.agent, m.body)] : [];
  if (m.folder === "archive" && m.path.startsWith(`${ARCHIVE_PARTS.join("/")}/`)) return [RESTORE];
  if (m.folder === DEAD_LETTER) {
    const original = originalOf(m.body);
    return original.text === null ? [DISCARD] : [requeue(original.to, original.text), DISCARD];
  }
  if (m.folder === "processed" && m.status === "processing") return [requeue(m.agent, m.body), RETRY, DISCARD];
  return m.folder === "queue" ? [DISCARD] : [];
}
