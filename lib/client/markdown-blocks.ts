// The few Markdown shapes a status board uses (headings, lists, tables, code, paragraphs, bold and
// code spans), parsed into plain values that React renders as text: nothing in a workspace file
// ever becomes HTML, a link or an image. Linear in the text's length. Pure.

export type Inline = { text: string; style: "plain" | "strong" | "code" };

export type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "table"; head: string[]; rows: string[][] }
  | { kind: "code"; text: string }
  | { kind: "paragraph"; lines: string[] };

const HEADING = /^(#{1,6})\s+(.*)$/;
const ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Consecutive lines from `start` that `test` accepts. */
function run(lines: readonly string[], start: number, test: (line: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = start; i < lines.length && test(lines[i] ?? ""); i++) out.push(lines[i] ?? "");
  return out;
}

function codeBlock(lines: readonly string[], start: number): { block: Block; next: number } {
  const body = run(lines, start + 1, (l) => !FENCE.test(l));
  // An unclosed fence runs to the end, as in CommonMark.
  return { block: { kind: "code", text: body.join("\n") }, next: start + body.length + 2 };
}

function tableBlock(rows: string[]): Block {
  const [head = "", second, ...rest] = rows;
  const body = second !== undefined && RULE.test(second) ? rest : [second, ...rest].filter((r): r is string => r !== undefined);
  return { kind: "table", head: cells(head), rows: body.map(cells) };
}

export function markdownBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const heading = HEADING.exec(line);
    if (line.trim() === "") i++;
    else if (FENCE.test(line)) {
      const { block, next } = codeBlock(lines, i);
      blocks.push(block);
      i = next;
    } else if (heading) {
      const level = Math.min(3, heading[1]?.length ?? 1) as 1 | 2 | 3;
      blocks.push({ kind: "heading", level, text: heading[2] ?? "" });
      i++;
    } else if (line.trimStart().startsWith("|")) {
      const rows = run(lines, i, (l) => l.trimStart().startsWith("|"));
      blocks.push(tableBlock(rows));
      i += rows.length;
    } else if (ITEM.test(line)) {
      const items = run(lines, i, (l) => ITEM.test(l));
      blocks.push({ kind: "list", items: items.map((l) => ITEM.exec(l)?.[1] ?? l) });
      i += items.length;
    } else {
      const para = run(lines, i, (l) => l.trim() !== "" && !HEADING.test(l) && !FENCE.test(l) && !ITEM.test(l) && !l.trimStart().startsWith("|"));
      blocks.push({ kind: "paragraph", lines: para });
      i += para.length;
    }
  }
  return blocks;
}

const SPAN = /\*\*([^*]+)\*\*|`([^`]+)`/g;

/** Bold and code spans of one line; everything else stays plain text. */
export function inlineParts(line: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of line.matchAll(SPAN)) {
    if (m.index > last) out.push({ text: line.slice(last, m.index), style: "plain" });
    out.push(m[1] !== undefined ? { text: m[1], style: "strong" } : { text: m[2] ?? "", style: "code" });
    last = m.index + m[0].length;
  }
  if (last < line.length || out.length === 0) out.push({ text: line.slice(last), style: "plain" });
  return out;
}
