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

/** The keyboard focus is nowhere (on the page's body): the control that held it was disabled or went away. */
export const focusIsLost = (): boolean => document.activeElement === null || document.activeElement === document.body;

/**
 * A ref whose element takes the keyboard focus when `when` turns true while the focus is on the
 * page's body: the control pressed was disabled or went away meanwhile (Send, once sent), and a
 * screen reader would lose its place. Focus that is somewhere is left there.
 */
export function useFocusIfLost<T extends HTMLElement>(when: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when && focusIsLost()) ref.current?.focus();
  }, [when]);
  return ref;
}
