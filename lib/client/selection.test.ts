import { describe, expect, it } from "vitest";
import { isTypingTarget, NO_SELECTION, selectedIndex, selectionReducer, shortcutFor, type Selection } from "./selection";

const keys = ["e", "d", "c", "b", "a"];
const move = (s: Selection, delta: number, list = keys) => selectionReducer(s, { type: "move", delta, keys: list });

describe("selectionReducer", () => {
  it("selects the first row on the first j or k", () => {
    expect(move(NO_SELECTION, 1)).toEqual({ key: "e", index: 0 });
    expect(move(NO_SELECTION, -1)).toEqual({ key: "e", index: 0 });
  });

  it("moves down and up and stops at both ends", () => {
    let s = move(NO_SELECTION, 1);
    s = move(move(s, 1), 1);
    expect(s).toEqual({ key: "c", index: 2 });
    expect(move(move(s, -1), -1)).toEqual({ key: "e", index: 0 });
    const last = selectionReducer(s, { type: "select", index: 99, keys });
    expect(last).toEqual({ key: "a", index: 4 });
    expect(move(last, 1)).toBe(last);
    expect(move(NO_SELECTION, 1, [])).toEqual(NO_SELECTION);
  });

  it("follows its message when rows arrive above it", () => {
    const s: Selection = { key: "c", index: 2 };
    const grown = ["g", "f", ...keys];
    expect(selectedIndex(s, grown)).toBe(4);
    expect(move(s, 1, grown)).toEqual({ key: "b", index: 5 });
  });

  it("falls back to the nearest row when its message leaves the list", () => {
    const s: Selection = { key: "c", index: 2 };
    expect(selectedIndex(s, ["e", "d", "b", "a"])).toBe(2);
    expect(selectedIndex({ key: "a", index: 4 }, ["e", "d"])).toBe(1);
    expect(selectedIndex(NO_SELECTION, keys)).toBeNull();
  });

  it("settles onto the row that took its message's place, so rows arriving later do not move it again", () => {
    const settle = (s: Selection, list: readonly string[]) => selectionReducer(s, { type: "settle", keys: list });
    const left = settle({ key: "c", index: 2 }, ["e", "d", "b", "a"]);
    expect(left).toEqual({ key: "b", index: 2 });
    expect(selectedIndex(left, ["g", "f", "e", "d", "b", "a"])).toBe(4);
    // Unchanged, or only moved down by new rows: the same state (no re-render).
    const s: Selection = { key: "c", index: 2 };
    expect(settle(s, keys)).toBe(s);
    expect(selectedIndex(settle(s, ["f", ...keys]), ["f", ...keys])).toBe(3);
    // An emptied list holds no selection, so rows that come back later are not selected by themselves.
    expect(settle(s, [])).toEqual(NO_SELECTION);
    expect(settle(NO_SELECTION, [])).toBe(NO_SELECTION);
  });

  it("clears", () => {
    expect(selectionReducer({ key: "c", index: 2 }, { type: "clear" })).toEqual(NO_SELECTION);
    expect(selectionReducer(NO_SELECTION, { type: "clear" })).toBe(NO_SELECTION);
  });
});

describe("shortcutFor / isTypingTarget", () => {
  const body = { tagName: "BODY" };
  it("maps the documented keys", () => {
    expect(["j", "k", "Enter", "/", "Escape", "?", "x"].map((key) => shortcutFor({ key }, body))).toEqual([
      "next", "prev", "open", "search", "escape", "help", null,
    ]);
  });

  it("leaves keys alone while typing and with modifiers", () => {
    expect(shortcutFor({ key: "j" }, { tagName: "INPUT", type: "search" })).toBeNull();
    expect(shortcutFor({ key: "/" }, { tagName: "TEXTAREA" })).toBeNull();
    expect(shortcutFor({ key: "k" }, { tagName: "DIV", isContentEditable: true })).toBeNull();
    expect(shortcutFor({ key: "j", ctrlKey: true }, body)).toBeNull();
    expect(shortcutFor({ key: "j" }, { tagName: "INPUT", type: "checkbox" })).toBe("next");
  });

  it("knows which elements take typing", () => {
    expect(isTypingTarget({ tagName: "input" })).toBe(true);
    expect(isTypingTarget({ tagName: "SELECT" })).toBe(true);
    expect(isTypingTarget({ tagName: "A" })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
