// KickLang statuses: a request (Command, Query) is unanswered until an envelope carries its id as
// correlation id; every other envelope is sent. Threads are correlation roots. Pure.
import type { Entry, EntryProblem, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "unanswered", label: "Unanswered", state: "open", tone: "sky", help: "A request (Command or Query) no envelope answers yet" },
  { id: "answered", label: "Answered", state: "done", tone: "emerald", help: "A request an envelope answers (it carries the request's id as its correlation id)" },
  { id: "sent", label: "Sent", state: "done", tone: "teal", help: "An envelope that asks for no answer" },
];

/** Correlation hops followed to a root: a chain longer than this is hostile (real chains are a request and its answers). */
const MAX_HOPS = 64;

interface Root {
  id: string;
  /** Why the chain has no true root: it loops, or it is longer than MAX_HOPS. */
  problem: EntryProblem | null;
}

/**
 * The root of `id`'s correlation chain. A chain that loops (a self-reply, a → b → a) has none: its
 * smallest id stands in, so every envelope of the loop shares one thread.
 */
function rootOf(id: string, parent: ReadonlyMap<string, string | null>): Root {
  const path = [id];
  const seen = new Set(path);
  let current = id;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const next = parent.get(current);
    if (!next) return { id: current, problem: null };
    // A request not seen (yet) is still the root its responses share.
    if (!parent.has(next)) return { id: next, problem: null };
    if (seen.has(next)) {
      const loop = path.slice(path.indexOf(next));
      const shown = [...loop, next].join(" → ");
      return { id: [...loop].sort()[0] ?? next, problem: { code: "rule:correlation", message: `The correlation chain loops (${shown}): no envelope in it is the request.` } };
    }
    path.push(next);
    seen.add(next);
    current = next;
  }
  return { id: current, problem: { code: "limit", message: `The correlation chain from ${id}: longer than ${MAX_HOPS} hops, followed no further (limit).` } };
}

/**
 * Marks answered requests, threads every envelope under the root of its correlation chain, and
 * flags a correlation id that names no envelope (rule 3: a response carries its request's id),
 * a chain that loops and one too long to follow.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  const parent = new Map<string, string | null>();
  const answered = new Set<string>();
  for (const e of entries) {
    if (e.messageId) parent.set(e.messageId, e.correlationId);
    if (e.correlationId) answered.add(e.correlationId);
  }
  return entries.map((e) => {
    const out: Entry = { ...e };
    if (e.status === "unanswered" && e.messageId && answered.has(e.messageId)) {
      out.status = "answered";
      out.dueAt = null;
    }
    if (e.correlationId && !parent.has(e.correlationId)) {
      out.problems = [...e.problems, { code: "rule:correlation", message: `The correlation id ${e.correlationId} names no envelope in any channel.`, absent: e.correlationId }];
    }
    const root = e.messageId ? rootOf(e.messageId, parent) : e.correlationId ? rootOf(e.correlationId, parent) : null;
    if (root) out.threadKey = root.id;
    if (root?.problem) out.problems = [...out.problems, root.problem];
    return out;
  });
}
