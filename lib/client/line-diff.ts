// A line diff of two bodies for Edit & requeue (the `diff` package), as rows to render. Pure.
import { diffLines } from "diff";

export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

export function lineDiff(before: string, after: string): { lines: DiffLine[]; added: number; removed: number } {
  const lines: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const kind = part.added ? "added" : part.removed ? "removed" : "same";
    const texts = part.value.split("\n");
    if (part.value.endsWith("\n")) texts.pop();
    for (const text of texts) lines.push({ kind, text });
  }
  return {
    lines,
    added: lines.filter((l) => l.kind === "added").length,
    removed: lines.filter((l) => l.kind === "removed").length,
  };
}
