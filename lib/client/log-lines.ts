// Splitting a log's text into lines with links to the messages they name (pure).

export type LogPart = { text: string } | { text: string; file: string };

/** A message file named in a log line (`task_assignment_1795….mime`, `…_dlq_1795136385.mime`). */
const MESSAGE_FILE = /[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\.mime\b/g;

export function logParts(line: string): LogPart[] {
  const parts: LogPart[] = [];
  let last = 0;
  for (const m of line.matchAll(MESSAGE_FILE)) {
    const at = m.index;
    if (at > last) parts.push({ text: line.slice(last, at) });
    parts.push({ text: m[0], file: m[0] });
    last = at + m[0].length;
  }
  if (last < line.length) parts.push({ text: line.slice(last) });
  return parts;
}

/** The lines kept on screen: the last `max` of `kept` and `added`. */
export function keepLast(kept: string[], added: string, max: number): string[] {
  const lines = added === "" ? [] : added.replace(/\n$/, "").split("\n");
  const all = kept.concat(lines);
  return all.length > max ? all.slice(all.length - max) : all;
}
