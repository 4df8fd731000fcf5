"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { notePageShown } from "@/lib/client/nav-history";
import { focusSearchOnArrival, HOLDS_INPUT_SELECTOR, SEARCH_PAGE } from "@/lib/client/search-focus";
import { SHORTCUTS, shortcutFor } from "@/lib/client/selection";
import { onShortcutsDialogAsked } from "@/lib/client/shortcuts-dialog";
import { setSingleKeys, shortcutKeyAllowed, useSingleKeys } from "@/lib/client/single-keys";

const kbd = "rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-700 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-200";

/**
 * The page-wide shortcuts (`/` to the search box, or to the messages timeline's on a page without
 * one; `?` for this list) and a small button that opens the list in a modal <dialog> (Esc or
 * Close shuts it; focus returns to where it was).
 */
export function KeyboardShortcuts() {
  const dialog = useRef<HTMLDialogElement>(null);
  const pathname = usePathname();
  const router = useRouter();
  useEffect(() => notePageShown(), [pathname]);

  useEffect(() => onShortcutsDialogAsked(() => dialog.current?.showModal()), []);
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || dialog.current?.open || !shortcutKeyAllowed(e.key)) return;
      const action = shortcutFor(e, e.target instanceof HTMLElement ? e.target : null);
      if (action === "help") {
        e.preventDefault();
        dialog.current?.showModal();
      } else if (action === "search") {
        const box = document.getElementById("q");
        if (box instanceof HTMLInputElement) {
          e.preventDefault();
          box.focus();
          box.select();
        } else if (!e.repeat && !document.querySelector(HOLDS_INPUT_SELECTOR)) {
          // No search box here (a message, a thread): search all messages. Not away from unsent input.
          e.preventDefault();
          focusSearchOnArrival(SEARCH_PAGE);
          router.push(SEARCH_PAGE);
        }
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [router]);

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        aria-haspopup="dialog"
        // Not under the presenter, which covers the page (a focused button there was out of sight): its legend opens the list.
        className="[body:has([data-presenter])_&]:hidden inline-flex items-center gap-2 rounded-md px-2 py-1 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        Keyboard shortcuts <kbd className={kbd}>?</kbd>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="shortcuts-title"
        onClick={(e) => {
          if (e.target === e.currentTarget) e.currentTarget.close();
        }}
        className="m-auto w-full max-w-md rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        <div className="space-y-3 p-5">
          <h2 id="shortcuts-title" className="text-base font-semibold">
            Keyboard shortcuts
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] items-baseline gap-x-4 gap-y-2 text-sm">
            {SHORTCUTS.map(({ keys, what }) => (
              <div key={what} className="contents">
                <dt>
                  {keys.map((k) => (
                    <kbd key={k} className={kbd}>
                      {k}
                    </kbd>
                  ))}
                </dt>
                <dd className="text-zinc-600 dark:text-zinc-300">{what}</dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">Keys do nothing special while you type in a field.</p>
          <SingleKeysSwitch />
          <form method="dialog" className="flex justify-end">
            <button type="submit" className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">
              Close
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}

/** One-character shortcuts on or off (WCAG 2.1.4: speech input types letters); Esc, Enter and the arrows stay. */
function SingleKeysSwitch() {
  const on = useSingleKeys();
  return (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" checked={on} onChange={(e) => setSingleKeys(e.target.checked)} className="mt-0.5 accent-sky-600" />
      <span>
        Single-key shortcuts
        <span className="block text-xs text-zinc-500 dark:text-zinc-400">j, k, / and ?, and the presenter&apos;s v, p and space. Turn off if you use speech input.</span>
      </span>
    </label>
  );
}
