// What a list shows of an IGNITE v2 message. Its file begins with type, from, to, timestamp and
// priority, which the timeline's own columns show, so a preview of the file's first words said only
// "type: task_assignment from: coordinator to: ignitian_2" on every row. Its payload is what it says
// (a task's title, a goal); a dead letter's is why it failed, then what its original asked.

/** Lines of a value kept: a preview is 160 characters, and a hostile file may hold a million lines. */
const MAX_LINES = 40;
/** Characters kept of a summary: several previews' worth, stored with the entry beside its body. */
const MAX_CHARS = 1_000;

/** A top-level key's value as written: its line's rest and the lines under it, dedented; null when absent. */
export function blockOf(text: string, key: string): string | null {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => line.startsWith(`${key}:`));
  if (at < 0) return null;
  const under: string[] = [];
  let indent = Infinity;
  for (const line of lines.slice(at + 1, at + 1 + MAX_LINES)) {
    // The next top-level key ends it; a block sequence may sit at the key's own indentation.
    if (line.trim() !== "" && !/^[ \t]/.test(line) && !line.startsWith("-")) break;
    under.push(line);
    if (line.trim() !== "") indent = Math.min(indent, /^[ \t]*/.exec(line)?.[0].length ?? 0);
  }
  const inline = (lines[at] ?? "").slice(key.length + 1).trim();
  const block = under.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n").trim();
  const value = [inline, block].filter((part) => part !== "").join("\n");
  return value === "" ? null : value;
}

/** The text a message's preview is taken from; undefined where it has nothing but its envelope (the file's own text then). */
export function summaryOf(text: string, original: string | null): string | undefined {
  const parts = original === null ? [blockOf(text, "payload")] : [blockOf(text, "failure_info"), blockOf(original, "payload")];
  const said = parts.filter((part): part is string => part !== null);
  return said.length > 0 ? said.join("\n").slice(0, MAX_CHARS) : undefined;
}
