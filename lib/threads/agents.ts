// Who takes part in a thread, and in which protocols, counted one way on the thread list, a
// message's thread section and the thread page. Pure.
import { PROTOCOLS, type Protocol } from "@/lib/model";

/**
 * Each sender and each recipient, sorted: not the queue, channel or archive that holds a message
 * (a KickLang channel or a shogun archive is no one's name), and not a sender a file leaves out.
 */
export function threadAgents(messages: readonly { from: string | null; to: readonly string[] }[]): string[] {
  const agents = new Set<string>();
  for (const m of messages) for (const name of [m.from, ...m.to]) if (name) agents.add(name);
  return [...agents].sort();
}

/** The protocols named, each once, in PROTOCOLS order: how the thread list and the thread page name a thread's protocols. */
export function inProtocolOrder(named: Iterable<string>): Protocol[] {
  const set = new Set(named);
  return PROTOCOLS.filter((p) => set.has(p));
}
