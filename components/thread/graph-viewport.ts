// Where a thread graph opens, and what its fit button shows. Pure, computed from the laid-out
// positions: React Flow's own fit only counts drawn nodes, and culling never draws the rest.
import type { Viewport } from "@xyflow/react";
import { NODE_H, NODE_W, type Positions } from "./graph-layout";

/** Below this zoom a node's labels cannot be read: a graph that fits only smaller opens on its first message. */
export const LEGIBLE_ZOOM = 0.5;
/** The zoom a graph too big to fit legibly opens at. */
export const OPENING_ZOOM = 0.75;
/** The zoom a replay follows its current message at: the reader's own, unless too small to read, then the opening's. */
export const followZoom = (current: number): number => (current >= LEGIBLE_ZOOM ? current : OPENING_ZOOM);
/** Space above the first node when a graph opens on it (px on screen). */
const TOP_GAP = 24;
/**
 * Pane strips no node is fitted into: React Flow's controls sit bottom-left (26 px buttons, 15 px
 * from the edge), its minimap bottom-right (200 px wide, 15 px from the edge); each plus a gap.
 */
export const GUTTER = { left: 56, right: 232, top: 24, bottom: 24 } as const;
/** The middle of the strip between the gutters, across the pane. */
const middleX = (width: number) => GUTTER.left + (width - GUTTER.left - GUTTER.right) / 2;

type Box = { x: number; y: number };

/** The viewport that shows all these node boxes in a pane of `width` × `height`, never above life size. */
export function viewportToFit(boxes: Box[], width: number, height: number): Viewport {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const w = Math.max(...boxes.map((b) => b.x)) + NODE_W - x;
  const h = Math.max(...boxes.map((b) => b.y)) + NODE_H - y;
  const free = { width: Math.max(1, width - GUTTER.left - GUTTER.right), height: Math.max(1, height - GUTTER.top - GUTTER.bottom) };
  const zoom = Math.max(0.01, Math.min(1, free.width / w, free.height / h));
  return { x: middleX(width) - (x + w / 2) * zoom, y: GUTTER.top + (free.height - h * zoom) / 2 - y * zoom, zoom };
}

/**
 * The whole graph when it fits legibly. Otherwise (a long chain of replies, a big thread) its
 * first node, at the top of the layout, centred across the pane at a zoom where it reads: the fit
 * button shows the rest. While a replay is under way (`current`), its current message, centred
 * (at `zoom`: a big screen's presenter reads from afar).
 */
export function openingViewport(positions: Positions, width: number, height: number, current?: string, zoom = OPENING_ZOOM): Viewport | null {
  const boxes = Object.values(positions);
  if (boxes.length === 0) return null;
  // `box` at zoom `z`, centred between the gutters, its top `top` px down the pane.
  const on = (box: Box, top: number, z = OPENING_ZOOM): Viewport => ({ x: middleX(width) - (box.x + NODE_W / 2) * z, y: top - box.y * z, zoom: z });
  const replayed = current === undefined ? undefined : positions[current];
  if (replayed) return on(replayed, (height - NODE_H * zoom) / 2, zoom);
  const fit = viewportToFit(boxes, width, height);
  if (fit.zoom >= LEGIBLE_ZOOM) return fit;
  // Positions keep the model's order (oldest first): among the top row, the earliest.
  return on(boxes.reduce((top, b) => (b.y < top.y ? b : top)), TOP_GAP);
}
