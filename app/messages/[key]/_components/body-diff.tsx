import { cn } from "@/components/ui/cn";
import { lineDiff } from "@/lib/client/line-diff";
import { countOf } from "@/lib/client/count";

const STYLE = {
  added: "bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-200",
  removed: "bg-red-50 text-red-900 line-through decoration-red-400/60 dark:bg-red-950/50 dark:text-red-200",
  same: "text-zinc-600 dark:text-zinc-400",
} as const;
const MARK = { added: "+", removed: "-", same: " " } as const;
const SPOKEN = { added: "added: ", removed: "removed: ", same: "" } as const;

/** The edited body against the original, line by line: + added (green), - removed (red). */
export function BodyDiff({ before, after }: { before: string; after: string }) {
  const { lines, added, removed } = lineDiff(before, after);
  if (added === 0 && removed === 0) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">No changes yet: the body is the same as the original.</p>;
  }
  return (
    <figure className="space-y-1">
      <figcaption className="text-sm font-medium">
        Changes against the original: {countOf(added, "line")} added, {removed.toLocaleString("en-US")} removed
      </figcaption>
      <pre className="max-h-80 overflow-auto rounded-md border border-zinc-200 py-1 font-mono text-xs leading-relaxed dark:border-zinc-800">
        {lines.map((l, i) => {
          const Tag = l.kind === "added" ? "ins" : l.kind === "removed" ? "del" : "span";
          return (
            <Tag key={i} className={cn("block whitespace-pre-wrap break-all px-2 no-underline", STYLE[l.kind])}>
              <span aria-hidden className="select-none pr-2">{MARK[l.kind]}</span>
              <span className="sr-only">{SPOKEN[l.kind]}</span>
              {l.text || " "}
            </Tag>
          );
        })}
      </pre>
    </figure>
  );
}
