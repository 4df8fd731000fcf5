"use client";

import { useReactFlow } from "@xyflow/react";
import type { FocusEvent, KeyboardEvent } from "react";
import { NODE_H, NODE_W } from "./graph-layout";

/** How far an arrow key pans the graph, in screen pixels. */
const PAN_STEP = 80;
const PANS: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };

/**
 * The graph by keyboard: a message that takes the focus (Tab through the nodes) is brought into
 * view, and on the graph itself arrow keys pan (unless `arrowsPan` is false: the presenter's
 * arrows switch threads) and + and − zoom, as dragging and the wheel do.
 * Spread onto the element around the flow (inside its provider).
 */
export function useGraphKeys(arrowsPan = true) {
  const flow = useReactFlow();
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    const id = e.target.closest<HTMLElement>(".react-flow__node")?.dataset.id;
    const node = id ? flow.getNode(id) : undefined;
    if (!node) return;
    const { x, y, zoom } = flow.getViewport();
    const pane = e.currentTarget.getBoundingClientRect();
    const [left, top] = [node.position.x * zoom + x, node.position.y * zoom + y];
    if (left >= 0 && top >= 0 && left + NODE_W * zoom <= pane.width && top + NODE_H * zoom <= pane.height) return;
    void flow.setCenter(node.position.x + NODE_W / 2, node.position.y + NODE_H / 2, { zoom, duration: 200 });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // The graph's own keys, not a node's or a control's (Enter on a node opens it).
    if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey || e.altKey) return;
    const pan = arrowsPan ? PANS[e.key] : undefined;
    if (pan) {
      const v = flow.getViewport();
      void flow.setViewport({ ...v, x: v.x + pan[0], y: v.y + pan[1] });
    } else if (e.key === "+" || e.key === "=") void flow.zoomIn({ duration: 150 });
    else if (e.key === "-") void flow.zoomOut({ duration: 150 });
    else return;
    e.preventDefault();
  };
  return { onFocus, onKeyDown };
}
