// KickLang statuses: a request (Command, Query) is unanswered until an envelope carries its id as
// correlation id; every other envelope is sent. Threads are correlation roots. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "unanswered", label: "Unanswered", state: "open" },
  { id: "answered", label: "Answered", state: "done" },
  { id: "sent", label: "Sent", state: "done" },
];

/** Correlation hops followed to a root: a chain longer than this is a loop or hostile. */
const MAX_HOPS = 64;

/**
 * Marks answered requests, threads every envelope under the root of its correlation chain, and
 * flags a correlation id that names no envelope (rule 3: a response carries its request's id).
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  const parent = new Map<string, string | null>();
  const answered = new Set<string>();
  for (const e of entries) {
    if (e.messageId) parent.set(e.messageId, e.correlationId);
    if (e.correlationId) answered.add(e.correlationId);
  }
  const rootOf = (id: string): string => {
    let current = id;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const next = parent.get(current);
      if (!next || next === id) return current;
      // A request not seen (yet) is still the root its responses share.
      if (!parent.has(next)) return next;
      current = next;
    }
    return current;
  };
  return entries.map((e) => {
    const out: Entry = { ...e };
    if (e.status === "unanswered" && e.messageId && answered.has(e.messageId)) {
      out.status = "answered";
      out.dueAt = null;
    }
    if (e.correlationId && !parent.has(e.correlationId)) {
      out.problems = [...e.problems, { code: "rule:correlation", message: `The correlation id ${e.correlationId} names no envelope in any channel.` }];
    }
    if (e.messageId) out.threadKey = rootOf(e.messageId);
    else if (e.correlationId) out.threadKey = rootOf(e.correlationId);
    return out;
  });
}
