// Who takes part in a thread, counted one way on the thread list, a message's thread section and the
// thread page. Pure.

/**
 * Each sender and each recipient, sorted: not the queue, channel or archive that holds a message
 * (a KickLang channel or a shogun archive is no one's name), and not a sender a file leaves out.
 */
export function threadAgents(messages: readonly { from: string | null; to: readonly string[] }[]): string[] {
  const agents = new Set<string>();
  for (const m of messages) for (const name of [m.from, ...m.to]) if (name) agents.add(name);
  return [...agents].sort();
}
