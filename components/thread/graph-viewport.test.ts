import { describe, expect, it } from "vitest";
import { layoutGraph, NODE_H, NODE_W, type Positions } from "./graph-layout";
import { followZoom, GUTTER, LEGIBLE_ZOOM, OPENING_ZOOM, openingViewport, viewportToFit } from "./graph-viewport";

const PANE = { width: 1200, height: 500 };

/** A thread of `n` replies in a row, as the layout places it. */
function chain(n: number): Positions {
  const ids = Array.from({ length: n }, (_, i) => `m${i}`);
  return layoutGraph({ nodes: ids.map((id) => ({ id, height: NODE_H })), edges: ids.slice(1).map((id, i) => ({ from: `m${i}`, to: id })) });
}

/** Where a node's box lands on screen under a viewport. */
const onScreen = (p: { x: number; y: number }, v: { x: number; y: number; zoom: number }) => ({
  left: v.x + p.x * v.zoom, top: v.y + p.y * v.zoom, right: v.x + (p.x + NODE_W) * v.zoom, bottom: v.y + (p.y + NODE_H) * v.zoom,
});

const inPane = (box: ReturnType<typeof onScreen>) => box.left >= 0 && box.top >= 0 && box.right <= PANE.width && box.bottom <= PANE.height;
/** Clear of the controls (left strip) and the minimap (right strip). */
const clearOfOverlays = (box: ReturnType<typeof onScreen>) => box.left >= GUTTER.left - 1e-6 && box.right <= PANE.width - GUTTER.right + 1e-6;
const MIDDLE = GUTTER.left + (PANE.width - GUTTER.left - GUTTER.right) / 2;

describe("openingViewport", () => {
  it("shows a small thread whole, at no more than life size", () => {
    const positions = chain(3);
    const v = openingViewport(positions, PANE.width, PANE.height)!;
    expect(v.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(v.zoom).toBeLessThanOrEqual(1);
    for (const p of Object.values(positions)) expect(inPane(onScreen(p, v))).toBe(true);
  });

  it("fits a wide thread with no node under the controls or the minimap", () => {
    const ids = Array.from({ length: 4 }, (_, i) => `w${i}`);
    const positions = layoutGraph({ nodes: ["root", ...ids].map((id) => ({ id, height: NODE_H })), edges: ids.map((id) => ({ from: "root", to: id })) });
    const v = openingViewport(positions, PANE.width, PANE.height)!;
    for (const p of Object.values(positions)) {
      expect(inPane(onScreen(p, v))).toBe(true);
      expect(clearOfOverlays(onScreen(p, v))).toBe(true);
    }
  });

  it("lays a message's replies side by side oldest to newest, left to right, each reply's own under it", () => {
    const replies = ["a", "b", "c"];
    const positions = layoutGraph({
      nodes: ["root", ...replies, "c1", "c2"].map((id) => ({ id, height: NODE_H })),
      edges: [...replies.map((id) => ({ from: "root", to: id })), { from: "c", to: "c1" }, { from: "c", to: "c2" }],
    });
    const x = (id: string) => positions[id]!.x;
    expect(x("a")).toBeLessThan(x("b"));
    expect(x("b")).toBeLessThan(x("c"));
    expect(x("c1")).toBeLessThan(x("c2"));
  });

  it("opens a long chain of replies on its first message at a legible zoom, centred across the pane", () => {
    const positions = chain(20);
    expect(viewportToFit(Object.values(positions), PANE.width, PANE.height).zoom).toBeLessThan(LEGIBLE_ZOOM);
    const v = openingViewport(positions, PANE.width, PANE.height)!;
    expect(v.zoom).toBe(OPENING_ZOOM);
    const first = onScreen(positions.m0!, v);
    expect(inPane(first)).toBe(true);
    expect(first.top).toBeLessThan(NODE_H);
    expect((first.left + first.right) / 2).toBeCloseTo(MIDDLE);
    // The next replies follow below it; the last is out of view until the reader scrolls or fits.
    expect(inPane(onScreen(positions.m1!, v))).toBe(true);
    expect(inPane(onScreen(positions.m19!, v))).toBe(false);
  });

  it("of several messages on the top row, opens on the earliest", () => {
    // Positions come in the model's order, oldest first; the earliest is not the leftmost here.
    const positions: Positions = { early: { x: 4000, y: 0 }, late: { x: 0, y: 0 }, below: { x: 0, y: 9000 } };
    const v = openingViewport(positions, PANE.width, PANE.height)!;
    const early = onScreen(positions.early!, v);
    expect((early.left + early.right) / 2).toBeCloseTo(MIDDLE);
  });

  it("opens on the replay's current message, centred, when a replay is under way", () => {
    const positions = chain(20);
    const v = openingViewport(positions, PANE.width, PANE.height, "m12")!;
    const current = onScreen(positions.m12!, v);
    expect((current.left + current.right) / 2).toBeCloseTo(MIDDLE);
    expect((current.top + current.bottom) / 2).toBeCloseTo(PANE.height / 2);
    // A key the layout has not placed (yet) falls back to the usual opening.
    expect(openingViewport(positions, PANE.width, PANE.height, "gone")).toEqual(openingViewport(positions, PANE.width, PANE.height));
  });

  it("opens on the current message at the zoom asked for (the presenter's), centred, and only then", () => {
    const positions = chain(20);
    const v = openingViewport(positions, PANE.width, PANE.height, "m12", 1.6)!;
    expect(v.zoom).toBe(1.6);
    const current = onScreen(positions.m12!, v);
    expect((current.left + current.right) / 2).toBeCloseTo(MIDDLE);
    expect((current.top + current.bottom) / 2).toBeCloseTo(PANE.height / 2);
    // Without a current message the zoom asked for changes nothing: the usual opening.
    expect(openingViewport(positions, PANE.width, PANE.height, undefined, 1.6)).toEqual(openingViewport(positions, PANE.width, PANE.height));
  });

  it("has nothing to open on before the layout placed a node", () => {
    expect(openingViewport({}, PANE.width, PANE.height)).toBeNull();
  });
});

describe("followZoom", () => {
  it("keeps the reader's zoom while it reads, and takes the opening's zoom when it does not", () => {
    expect(followZoom(1.5)).toBe(1.5);
    expect(followZoom(LEGIBLE_ZOOM)).toBe(LEGIBLE_ZOOM);
    expect(followZoom(LEGIBLE_ZOOM / 2)).toBe(OPENING_ZOOM);
  });
});

describe("viewportToFit", () => {
  it("shows every node of a long chain, however small", () => {
    const positions = chain(20);
    const v = viewportToFit(Object.values(positions), PANE.width, PANE.height);
    for (const p of Object.values(positions)) expect(inPane(onScreen(p, v)) && clearOfOverlays(onScreen(p, v))).toBe(true);
  });
});
