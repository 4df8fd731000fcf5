// Which actions a message allows, from its summary and body (pure: rendered and tested alike).
import type { MessageDetail, Protocol } from "@/lib/model";
import { parseDeadLetterBody, splitHeaderBlock } from "@/lib/protocols/ignite/client";

export interface Capabilities {
  requeue: boolean;
  retry: boolean;
  discard: boolean;
  restore: boolean;
  /** Where Requeue sends it unless told otherwise: the original's To, or its own queue. */
  defaultQueue: string | null;
  /** The body Edit & requeue starts from (the original's, for a dead letter). */
  originalBody: string;
  /** The path to send as "what the page showed" (null: the file is gone; the server finds the dead letter). */
  path: string | null;
}

type Input = Pick<MessageDetail, "protocol" | "folder" | "status" | "path" | "agent" | "to" | "body" | "data" | "heldAgent">;

/** Whether Mailroom's actions change this protocol's files at all (lib/operations/target.ts refuses the others). */
export function actsOn(protocol: Protocol): boolean {
  return protocol === "ignite";
}

export function capabilitiesOf(m: Input): Capabilities | null {
  if (!actsOn(m.protocol)) return null;
  const none: Capabilities = { requeue: false, retry: false, discard: false, restore: false, defaultQueue: null, originalBody: m.body, path: m.path };
  if (m.path === null) {
    // A dead original: requeued through the dead letter that holds it, to the queue it failed in.
    return m.status === "dead" ? { ...none, requeue: true, defaultQueue: m.agent } : null;
  }
  if (m.folder === "archive") return { ...none, restore: true };
  if (m.folder === "dead_letter") {
    const info = parseDeadLetterBody(m.body, m.data);
    const body = info.originalText === null ? "" : splitHeaderBlock(info.originalText).body;
    const failedIn = m.heldAgent && m.heldAgent !== "dead_letter" ? m.heldAgent : null;
    return { ...none, requeue: info.originalText !== null, discard: true, defaultQueue: failedIn ?? info.originalAgent, originalBody: body };
  }
  // A failed one (error) too: nothing retries it but an operator.
  if (m.folder === "processed" && (m.status === "processing" || m.status === "error")) {
    return { ...none, requeue: true, retry: true, discard: true, defaultQueue: m.agent };
  }
  return { ...none, discard: true };
}
