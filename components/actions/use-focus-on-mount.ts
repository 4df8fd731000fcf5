"use client";

import { useEffect, useEffectEvent, useRef } from "react";

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

/** The keyboard focus is nowhere (on the page's body): the control that held it was disabled or went away. */
export const focusIsLost = (): boolean => document.activeElement === null || document.activeElement === document.body;

/**
 * A ref whose element takes the keyboard focus when `when` turns true while the focus is on the
 * page's body: the control pressed was disabled or went away meanwhile (Send, once sent), and a
 * screen reader would lose its place. Focus that is somewhere is left there, and `otherwise` runs
 * instead (to announce what the focus would have read).
 */
export function useFocusIfLost<T extends HTMLElement>(when: boolean, otherwise?: () => void) {
  const ref = useRef<T>(null);
  const elsewhere = useEffectEvent(() => otherwise?.());
  useEffect(() => {
    if (!when) return;
    if (focusIsLost()) ref.current?.focus();
    else elsewhere();
  }, [when]);
  return ref;
}
