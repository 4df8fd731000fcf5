// A thread as React Flow nodes and edges (positions come from the layout). Pure.
import { MarkerType, Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import type { MessageSummary } from "@/lib/model";
import type { MissingParent, ThreadDetail } from "@/lib/threads/model";
import { MISSING_H, NODE_H, NODE_W, type LayoutInput } from "./graph-layout";

export type MessageNodeData = { message: MessageSummary; index: number; total: number };
export type MissingNodeData = { item: MissingParent };
export type MessageFlowNode = Node<MessageNodeData, "message">;
export type MissingFlowNode = Node<MissingNodeData, "missing">;
export type ThreadFlowNode = MessageFlowNode | MissingFlowNode;

export type EdgeKind = "reply" | "next" | "dead-letter" | "requeue";
export type ThreadEdgeData = { kind: EdgeKind; targetIndex: number };
export type ThreadFlowEdge = Edge<ThreadEdgeData, "thread">;

const COLOR: Record<EdgeKind, string> = {
  reply: "#71717a",
  next: "#a1a1aa",
  "dead-letter": "#ef4444",
  requeue: "#f59e0b",
};

const LABEL: Partial<Record<EdgeKind, string>> = { "dead-letter": "dead letter", requeue: "requeued" };

export interface GraphModel {
  nodes: ThreadFlowNode[];
  edges: ThreadFlowEdge[];
  layout: LayoutInput;
  /** Changes only when nodes or edges are added or removed: the layout is redone then, not on a status change. */
  signature: string;
}

/**
 * Handles declared up front (top centre in, bottom centre out): React Flow otherwise draws every
 * node once just to measure them, which for 2,000 nodes costs more than a second.
 */
function handles(height: number, target: boolean): NodeHandle[] {
  const x = NODE_W / 2 - 0.5;
  const out: NodeHandle[] = [{ type: "source", position: Position.Bottom, x, y: height - 1, width: 1, height: 1 }];
  return target ? [{ type: "target", position: Position.Top, x, y: 0, width: 1, height: 1 }, ...out] : out;
}

/** From this size on, handles are declared (see `handles`); smaller graphs are simply measured. */
export const DECLARE_HANDLES_FROM = 250;

export function graphModel(t: ThreadDetail): GraphModel {
  const declare = t.messages.length + t.missing.length >= DECLARE_HANDLES_FROM;
  const index = new Map(t.messages.map((m, i) => [m.key, i]));
  const nodes: ThreadFlowNode[] = [
    // Fixed sizes: the minimap and culling know every node's box before it is drawn.
    ...t.missing.map((item): MissingFlowNode => ({ id: item.id, type: "missing", position: { x: 0, y: 0 }, width: NODE_W, height: MISSING_H, handles: declare ? handles(MISSING_H, false) : undefined, data: { item } })),
    ...t.messages.map((message, i): MessageFlowNode => ({
      id: message.key,
      type: "message",
      position: { x: 0, y: 0 },
      width: NODE_W,
      height: NODE_H,
      handles: declare ? handles(NODE_H, true) : undefined,
      data: { message, index: i, total: t.messages.length },
    })),
  ];
  const links: { from: string; to: string; kind: EdgeKind }[] = [...t.edges, ...t.branches];
  const edges = links.map(
    (l): ThreadFlowEdge => ({
      id: `${l.kind}:${l.from}->${l.to}`,
      source: l.from,
      target: l.to,
      type: "thread",
      label: LABEL[l.kind],
      data: { kind: l.kind, targetIndex: index.get(l.to) ?? 0 },
      markerEnd: { type: MarkerType.ArrowClosed, color: COLOR[l.kind], width: 16, height: 16 },
      style: { stroke: COLOR[l.kind], strokeWidth: l.kind === "next" ? 1.25 : 1.75, strokeDasharray: l.kind === "reply" ? undefined : "6 4" },
    }),
  );
  const layout: LayoutInput = {
    nodes: nodes.map((n) => ({ id: n.id, height: n.type === "missing" ? MISSING_H : NODE_H })),
    edges: links.filter((l) => l.kind !== "requeue"),
  };
  const signature = `${nodes.map((n) => n.id).join("|")}#${edges.map((e) => e.id).join("|")}`;
  return { nodes, edges, layout, signature };
}
