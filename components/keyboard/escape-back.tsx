"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { hasInAppHistory } from "@/lib/client/nav-history";
import { shortcutFor } from "@/lib/client/selection";

/**
 * Esc goes back (history.back(), so the list returns as it was), or to `fallback` when this page
 * was opened directly. Not while typing, and not while a dialog is open (Esc closes that).
 */
export function EscapeBack({ fallback }: { fallback: string }) {
  const router = useRouter();
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || document.querySelector("dialog[open]")) return;
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
