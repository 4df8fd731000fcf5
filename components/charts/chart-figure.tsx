import { useId, type ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** A chart's card: its title, a one-line summary for screen readers (the canvas is hidden from them), the chart and its table. */
export function ChartFigure({ title, summary, note, children }: { title: string; summary: string; note?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card className="min-w-0 p-4">
      <figure aria-labelledby={id}>
        <figcaption id={id} className="text-sm font-semibold">{title}</figcaption>
        <p className="sr-only">{summary}</p>
        {note ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{note}</p> : null}
        {children}
      </figure>
    </Card>
  );
}

export function ChartLegend({ items }: { items: { name: string; color: string }[] }) {
  return (
    <ul className="my-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300" aria-hidden="true">
      {items.map((it) => (
        <li key={it.name} className="flex min-w-0 max-w-full items-center gap-1">
          <span className="inline-block size-2.5 shrink-0 rounded-sm" style={{ background: it.color }} />
          {/* A series is named by what a file says (a type, an agent): a long one is cut, whole in its tooltip. */}
          <span className="max-w-[16rem] truncate font-mono" title={it.name}>{it.name}</span>
        </li>
      ))}
    </ul>
  );
}
