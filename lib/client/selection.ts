// Keyboard shortcuts as pure functions: which key means what, and the list's selection (j/k).

export type Shortcut = "next" | "prev" | "open" | "search" | "escape" | "help";

/** The keys, as the shortcuts dialog lists them. */
export const SHORTCUTS: readonly { keys: string[]; what: string }[] = [
  { keys: ["j"], what: "Select the next message in a list" },
  { keys: ["k"], what: "Select the previous message" },
  { keys: ["Enter"], what: "Open the selected message" },
  { keys: ["/"], what: "Go to the search box (on a page without one: search all messages)" },
  { keys: ["Esc"], what: "Close suggestions, leave the search box or clear the selection; on a message, go back" },
  { keys: ["?"], what: "Show these shortcuts" },
];

interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

interface TargetLike {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
}

const NOT_TEXT = new Set(["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"]);

/** True where a key press is someone typing: text inputs, textareas, selects, editable content. */
export function isTypingTarget(target: TargetLike | null | undefined): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TEXT.has((target.type ?? "text").toLowerCase());
}

/** What a key press asks for, or null. Modified keys (Ctrl, Cmd, Alt) are the browser's. */
export function shortcutFor(e: KeyLike, target: TargetLike | null | undefined): Shortcut | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  // While typing, only Esc means something (leave the box); the box handles it itself.
  if (isTypingTarget(target)) return null;
  switch (e.key) {
    case "j":
      return "next";
    case "k":
      return "prev";
    case "Enter":
      return "open";
    case "/":
      return "search";
    case "Escape":
      return "escape";
    case "?":
      return "help";
    default:
      return null;
  }
}

/** The selected row: by key, so it stays on its message when rows arrive above it; the index is a fallback. */
export interface Selection {
  key: string | null;
  index: number;
}

export const NO_SELECTION: Selection = { key: null, index: -1 };

export type SelectionAction =
  | { type: "move"; delta: number; keys: readonly string[] }
  | { type: "select"; index: number; keys: readonly string[] }
  | { type: "clear" }
  /** The list changed: a selection whose message left it moves onto the row now in its place, and an emptied list has none. */
  | { type: "settle"; keys: readonly string[] };

/** Where the selection is in `keys` now: its key's row, or (if that message left the list) the nearest row. */
export function selectedIndex(s: Selection, keys: readonly string[]): number | null {
  if (s.key === null || keys.length === 0) return null;
  if (keys[s.index] === s.key) return s.index;
  const found = keys.indexOf(s.key);
  return found >= 0 ? found : Math.min(s.index, keys.length - 1);
}

function at(index: number, keys: readonly string[]): Selection {
  if (keys.length === 0) return NO_SELECTION;
  const i = Math.max(0, Math.min(index, keys.length - 1));
  return { key: keys[i] ?? null, index: i };
}

export function selectionReducer(state: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case "clear":
      return state.key === null ? state : NO_SELECTION;
    case "settle": {
      const index = selectedIndex(state, action.keys);
      if (index === null) return state.key === null ? state : NO_SELECTION;
      return index === state.index && action.keys[index] === state.key ? state : at(index, action.keys);
    }
    case "select":
      return at(action.index, action.keys);
    case "move": {
      const current = selectedIndex(state, action.keys);
      // The first j or k selects the first row.
      const next = current === null ? 0 : current + action.delta;
      const moved = at(next, action.keys);
      return moved.key === state.key && moved.index === state.index ? state : moved;
    }
  }
}
