// Automatic layout of a thread graph with dagre (top to bottom, replies under their parent). Pure,
// so it also runs in the layout worker.
import dagre from "@dagrejs/dagre";

export const NODE_W = 236;
export const NODE_H = 76;
export const MISSING_H = 44;

export interface LayoutInput {
  nodes: { id: string; height: number }[];
  /** Edges that shape the layout (requeue edges point back up and are left out). */
  edges: { from: string; to: string }[];
}

export type Positions = Record<string, { x: number; y: number }>;

/** Top-left positions for React Flow (dagre gives centres). */
export function layoutGraph(input: LayoutInput): Positions {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 56, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of input.nodes) g.setNode(n.id, { width: NODE_W, height: n.height });
  // Edges come in the model's order: replies oldest first, then dead-letter branches. dagre places
  // the first of a message's children rightmost, so they go in reversed: replies side by side read
  // oldest to newest, left to right, as time does (a dead letter, given first, is rightmost).
  for (const e of [...input.edges].reverse()) if (g.hasNode(e.from) && g.hasNode(e.to) && e.from !== e.to) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const out: Positions = {};
  for (const n of input.nodes) {
    const p = g.node(n.id);
    out[n.id] = { x: (p?.x ?? 0) - NODE_W / 2, y: (p?.y ?? 0) - n.height / 2 };
  }
  return out;
}
