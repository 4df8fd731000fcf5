import { useEffect, useRef } from "react";
import type { Suggestion } from "@/lib/client/completion";
import { cn } from "../ui/cn";

export const optionId = (listId: string, i: number) => `${listId}-opt-${i}`;

/**
 * The search box's listbox. Focus stays in the box (aria-activedescendant points here), so
 * options take no focus: a press on one must not blur the box before the click lands.
 */
export function SuggestionList({
  id,
  items,
  open,
  active,
  onPick,
}: {
  id: string;
  items: Suggestion[];
  open: boolean;
  active: number;
  onPick: (s: Suggestion) => void;
}) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (active < 0) return;
    ref.current?.querySelector(`#${CSS.escape(optionId(id, active))}`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);

  return (
    <ul
      ref={ref}
      id={id}
      role="listbox"
      aria-label="Search suggestions"
      hidden={!open}
      className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-auto rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
    >
      {items.map((s, i) => (
        <li
          key={s.insert}
          id={optionId(id, i)}
          role="option"
          aria-selected={i === active}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(s)}
          className={cn(
            "flex cursor-pointer items-baseline justify-between gap-4 px-3 py-1",
            i === active ? "bg-sky-100 text-sky-950 dark:bg-sky-900/60 dark:text-sky-50" : "hover:bg-zinc-100 dark:hover:bg-zinc-800",
          )}
        >
          <span className="truncate font-mono">{s.label}</span>
          <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{s.hint}</span>
        </li>
      ))}
    </ul>
  );
}
