"use client";

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn";

export interface Tab {
  id: string;
  label: string;
  /** Rendered only while selected, so a tab can load its content on demand. */
  render: () => ReactNode;
}

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs; only the selected panel is mounted. */
export function Tabs({ tabs, label, initial, actions }: { tabs: Tab[]; label: string; initial?: string; actions?: ReactNode }) {
  const base = useId();
  const [selected, setSelected] = useState(initial ?? tabs[0]?.id ?? "");
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.find((t) => t.id === selected) ?? tabs[0];

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const i = tabs.findIndex((t) => t.id === current?.id);
    const next =
      e.key === "ArrowRight" ? (i + 1) % tabs.length
      : e.key === "ArrowLeft" ? (i - 1 + tabs.length) % tabs.length
      : e.key === "Home" ? 0
      : e.key === "End" ? tabs.length - 1
      : -1;
    const tab = tabs[next];
    if (next < 0 || !tab) return;
    e.preventDefault();
    setSelected(tab.id);
    refs.current.get(tab.id)?.focus();
  }

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-2 dark:border-zinc-800">
        <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1">
          {tabs.map((t) => {
            const active = t.id === current?.id;
            return (
              <button
                key={t.id}
                ref={(el) => {
                  if (el) refs.current.set(t.id, el);
                  else refs.current.delete(t.id);
                }}
                type="button"
                role="tab"
                id={`${base}-tab-${t.id}`}
                aria-selected={active}
                aria-controls={`${base}-panel-${t.id}`}
                tabIndex={active ? 0 : -1}
                onClick={() => setSelected(t.id)}
                className={cn(
                  "-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:-outline-offset-2",
                  active
                    ? "border-sky-500 text-zinc-900 dark:text-zinc-50"
                    : "border-transparent text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200",
                )}
              >
                {t.label}
              </button>
            );
          })}
        </div>
        {actions}
      </div>
      {current ? (
        <div role="tabpanel" id={`${base}-panel-${current.id}`} aria-labelledby={`${base}-tab-${current.id}`} tabIndex={0} className="outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500">
          {current.render()}
        </div>
      ) : null}
    </div>
  );
}
