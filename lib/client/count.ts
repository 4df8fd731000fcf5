/**
 * "1 message", "1,988 messages": a count grouped by thousands (as the overview's totals are),
 * with its noun in the right number. Big trees make every count a possible five-digit one.
 */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}
