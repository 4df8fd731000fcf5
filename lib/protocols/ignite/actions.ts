// Which of Mailroom's IGNITE v3 actions a message offers (lib/operations carries them out): told
// by the server with the message, so no client code decides. Pure.
import type { ActionDescriptor, ActionSubject } from "@/lib/protocols/actions";
import { parseDeadLetterBody } from "./dead-letter";
import { splitHeaderBlock } from "./reference";

const requeue = (queue: string | null, body: string): ActionDescriptor => ({ id: "requeue", verb: "Requeue", input: "queue+body", bulk: true, queue, body });
const RETRY: ActionDescriptor = { id: "retry", verb: "Retry now", input: "none", bulk: true };
const DISCARD: ActionDescriptor = { id: "discard", verb: "Discard", input: "none", bulk: true };
const RESTORE: ActionDescriptor = { id: "restore", verb: "Restore", input: "none", bulk: true };

export function actionsFor(m: ActionSubject): ActionDescriptor[] {
  if (m.path === null) {
    // A dead original: requeued through the one dead letter that holds it (heldBy), to the queue it failed in.
    return m.status === "dead" && m.heldBy ? [requeue(m.agent, m.body)] : [];
  }
  if (m.folder === "archive") return [RESTORE];
  if (m.folder === "dead_letter") {
    // No parsed body (null): the letter is read from its text, as the dead-letters list asks.
    const info = parseDeadLetterBody(m.body, m.data ?? undefined);
    const body = info.originalText === null ? "" : splitHeaderBlock(info.originalText).body;
    const failedIn = m.heldAgent && m.heldAgent !== "dead_letter" ? m.heldAgent : null;
    return info.originalText === null ? [DISCARD] : [requeue(failedIn ?? info.originalAgent, body), DISCARD];
  }
  // A failed one (error) too: nothing retries it but an operator.
  if (m.folder === "processed" && (m.status === "processing" || m.status === "error")) return [requeue(m.agent, m.body), RETRY, DISCARD];
  return [DISCARD];
}
