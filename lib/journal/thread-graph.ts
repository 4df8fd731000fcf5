// A thread's edges, branches and placeholder nodes, from its messages in time order. Pure.
import type { MessageSummary } from "@/lib/model";
import { missingNodeId, type MissingParent, type ThreadBranch, type ThreadEdge } from "@/lib/threads/model";

export interface Requeue {
  key: string;
  atMs: number;
}

export interface ThreadGraph {
  edges: ThreadEdge[];
  branches: ThreadBranch[];
  missing: MissingParent[];
}

/**
 * - reply: the In-Reply-To parent → the message (a parent not in the thread is the placeholder
 *   `missing:<Message-ID>`);
 * - dead-letter branch: the original → its dead letter; requeue branch: the dead letter → the
 *   original, when the original was requeued after it;
 * - next: every other message but the first, from the latest earlier message its sender sent or
 *   received (what it most likely answers), else from the message just before it.
 * `outside` names journaled messages outside the thread, by Message-ID.
 */
export function buildThreadGraph(messages: MessageSummary[], requeues: Requeue[], outside: Map<string, string>): ThreadGraph {
  const keys = new Set(messages.map((m) => m.key));
  const byMid = new Map<string, string>();
  for (const m of messages) if (m.messageId && !byMid.has(m.messageId)) byMid.set(m.messageId, m.key);

  const edges: ThreadEdge[] = [];
  const branches: ThreadBranch[] = [];
  const missing = new Map<string, MissingParent>();
  const lastInvolving = new Map<string, string>();

  messages.forEach((m, i) => {
    const parent = m.inReplyTo ? byMid.get(m.inReplyTo) : undefined;
    if (m.deadLetterOf && keys.has(m.deadLetterOf)) {
      branches.push({ from: m.deadLetterOf, to: m.key, kind: "dead-letter" });
    } else if (m.inReplyTo && parent !== m.key) {
      if (parent) {
        edges.push({ from: parent, to: m.key, kind: "reply" });
      } else {
        const id = missingNodeId(m.inReplyTo);
        if (!missing.has(id)) missing.set(id, { id, messageId: m.inReplyTo, key: outside.get(m.inReplyTo) ?? null });
        edges.push({ from: id, to: m.key, kind: "reply" });
      }
    } else if (i > 0) {
      const previous = (m.from ? lastInvolving.get(m.from) : undefined) ?? messages[i - 1]?.key;
      if (previous) edges.push({ from: previous, to: m.key, kind: "next" });
    }
    for (const agent of [m.from, ...m.to, ...m.cc]) if (agent) lastInvolving.set(agent, m.key);
  });

  for (const r of requeues) {
    // A letter's time is when it was written (sortMs), not its last change: archived at the requeue, it would fall after it.
    const letters = messages.filter((m) => m.deadLetterOf === r.key && m.sortMs <= r.atMs);
    const latest = letters[letters.length - 1];
    if (latest && !branches.some((b) => b.kind === "requeue" && b.from === latest.key)) {
      branches.push({ from: latest.key, to: r.key, kind: "requeue" });
    }
  }
  return { edges, branches, missing: [...missing.values()] };
}
