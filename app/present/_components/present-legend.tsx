"use client";

import { PRESENTER_KEYS, type PresenterKey } from "@/lib/client/presenter";
import { openShortcutsDialog } from "@/lib/client/shortcuts-dialog";

const kbd =
  "rounded border border-zinc-300 bg-zinc-50 px-2 py-0.5 font-mono text-sm text-zinc-700 hover:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-700";

/** The keys, small along the bottom; each key is also a button, for whoever holds a mouse after all. */
export function PresentLegend({ onAct }: { onAct: (action: PresenterKey) => void }) {
  return (
    <footer aria-label="Presenter keys" className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm text-zinc-500 dark:text-zinc-400">
      {PRESENTER_KEYS.map(({ key, action, what }) => (
        <span key={key} className="inline-flex items-center gap-1.5">
          <button type="button" className={kbd} onClick={() => onAct(action)} aria-label={`${key}: ${what}`}>
            {key}
          </button>
          {what}
        </span>
      ))}
      <span className="inline-flex items-center gap-1.5">
        <kbd className={kbd}>Esc</kbd> leave
      </span>
      <button type="button" className={`${kbd} ml-auto font-sans`} onClick={openShortcutsDialog} aria-haspopup="dialog">
        Keyboard shortcuts
      </button>
    </footer>
  );
}
