"use client";

import { useEffect } from "react";

/**
 * Marks the page interactive (`<html data-hydrated>`) once React has attached its handlers. It
 * renders last in the root layout, and effects run children first and siblings in order, so by
 * then every handler of the page and the page-wide shortcuts are in place. A key pressed before
 * that, on the server-rendered page, does nothing: browser tests wait for the mark first.
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
