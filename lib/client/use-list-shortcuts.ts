import { useEffect, useRef } from "react";
import { shortcutFor } from "./selection";
import { shortcutKeyAllowed } from "./single-keys";

export interface ListShortcutHandlers {
  /** j (+1) and k (-1). */
  move: (delta: number) => void;
  /** Enter on no particular control: open the selection. Returns whether it did. */
  open: () => boolean;
  /** Esc outside the search box: clear the selection. */
  escape: () => void;
}

/** Elements whose own Enter must not be taken over (a focused row link opens itself). */
const ACTIVATES_ITSELF = "a[href],button,summary,input,select,textarea,[role=button],[role=option]";

/** j/k/Enter/Esc for a list on this page; keys typed into fields, and any open dialog, are left alone. */
export function useListShortcuts(handlers: ListShortcutHandlers): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });

  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || document.querySelector("dialog[open]") || !shortcutKeyAllowed(e.key)) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      switch (shortcutFor(e, target)) {
        case "next":
          e.preventDefault();
          ref.current.move(1);
          break;
        case "prev":
          e.preventDefault();
          ref.current.move(-1);
          break;
        case "open":
          if (target?.closest(ACTIVATES_ITSELF)) return;
          if (ref.current.open()) e.preventDefault();
          break;
        case "escape":
          ref.current.escape();
          break;
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
