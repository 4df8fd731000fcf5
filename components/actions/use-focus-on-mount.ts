"use client";

import { useEffect, useRef } from "react";

/**
 * A ref whose element takes the keyboard focus when it appears: a view that replaces the control
 * just pressed (a confirm, an editor, an outcome) would otherwise leave focus on the page's body.
 */
export function useFocusOnMount<T extends HTMLElement>(when = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
