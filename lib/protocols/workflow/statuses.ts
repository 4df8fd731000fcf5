// workflow statuses: a message that needs no ack is sent; one that does is unacked until its
// agent's ack file says received, then processed. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "sent", label: "Sent", state: "done", tone: "teal", help: "Sent on a channel; it asks for no ack" },
  { id: "unacked", label: "Unacked", state: "open", tone: "sky", help: "Sent, and waiting for its agent's ack" },
  { id: "received", label: "Received", state: "open", tone: "violet", help: "Its agent acked it as received, not processed yet" },
  { id: "processed", label: "Processed", state: "done", tone: "emerald", help: "Its agent acked it as processed" },
  { id: "logged", label: "Logged", state: "done", tone: "neutral", help: "A line of the workflow's own log" },
];

const RANK: Record<string, number> = { unacked: 0, received: 1, processed: 2 };

/**
 * Settles each acked message from the ack records that name it: the furthest ack wins (a
 * broadcast is acked by several agents), and an acked message is no longer due. An ack that
 * names no message seen is flagged.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  const best = new Map<string, string>();
  const messages = new Set<string>();
  for (const e of entries) {
    if (e.kind === "message" && e.messageId) messages.add(e.messageId);
    if (e.kind !== "ack") continue;
    for (const link of e.links) {
      if (link.kind !== "acks") continue;
      const status = e.status in RANK ? e.status : "received";
      if ((RANK[status] ?? 0) > (RANK[best.get(link.targetId) ?? "unacked"] ?? 0)) best.set(link.targetId, status);
    }
  }
  return entries.map((e) => {
    if (e.kind === "ack") {
      const orphan = e.links.find((l) => l.kind === "acks" && !messages.has(l.targetId));
      return orphan ? { ...e, problems: [...e.problems, { code: "orphan-ack", message: `This ack names ${orphan.targetId}, a message not found in this workflow.`, absent: orphan.targetId }] } : e;
    }
    const acked = e.kind === "message" && e.messageId && e.status in RANK ? best.get(e.messageId) : undefined;
    return acked && (RANK[acked] ?? 0) > (RANK[e.status] ?? 0) ? { ...e, status: acked, dueAt: null } : e;
  });
}
