// Open the keyboard shortcuts dialog (components/keyboard/keyboard-shortcuts.tsx) from elsewhere:
// the presenter covers the page's own button, and with one-key shortcuts off `?` does nothing.

const OPEN_EVENT = "mailroom:shortcuts";

export function openShortcutsDialog(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

/** Call `open` whenever the dialog is asked for; returns the unsubscribe. */
export function onShortcutsDialogAsked(open: () => void): () => void {
  window.addEventListener(OPEN_EVENT, open);
  return () => window.removeEventListener(OPEN_EVENT, open);
}
