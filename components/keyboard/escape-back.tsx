"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { hasInAppHistory } from "@/lib/client/nav-history";
import { HOLDS_INPUT_SELECTOR } from "@/lib/client/search-focus";
import { shortcutFor } from "@/lib/client/selection";

/**
 * Esc goes back (history.back(), so the list returns as it was), or to `fallback` when this page
 * was opened directly. Not while typing, not while a dialog or an inline confirm is open (Esc
 * closes that), and not while an editor holds input (leaving would throw it away).
 */
export function EscapeBack({ fallback }: { fallback: string }) {
  const router = useRouter();
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || document.querySelector(`dialog[open], [role="alertdialog"], ${HOLDS_INPUT_SELECTOR}`)) return;
      if (shortcutFor(e, e.target instanceof HTMLElement ? e.target : null) !== "escape") return;
      e.preventDefault();
      if (hasInAppHistory()) window.history.back();
      else router.push(fallback);
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [router, fallback]);
  return null;
}
