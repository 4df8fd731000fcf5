/** The queues every selected letter's source has: the only ones a bulk requeue can take them all to. */
export function sharedQueues(letters: readonly { source: string }[], bySource: Record<string, string[]>): string[] {
  const sources = [...new Set(letters.map((d) => d.source))];
  const [first, ...rest] = sources.map((s) => bySource[s] ?? []);
  return (first ?? []).filter((q) => rest.every((qs) => qs.includes(q)));
}
