"use client";

import {
  Background, ControlButton, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, useStore, type EdgeTypes, type NodeTypes,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useId, useMemo, useRef } from "react";
import { cn } from "@/components/ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { usePrefersDark } from "@/lib/client/use-prefers-dark";
import type { ThreadDetail } from "@/lib/threads/model";
import { NODE_H, NODE_W, type Positions } from "./graph-layout";
import { graphModel, type ThreadFlowNode } from "./graph-model";
import { followZoom, openingViewport, viewportToFit } from "./graph-viewport";
import { useGraphKeys } from "./graph-keys";
import { MessageNode, MissingNode } from "./message-node";
import { useReplayState } from "./replay-store";
import { THREAD_PANE_HEIGHT } from "./sequence-layout";
import { ThreadEdge } from "./thread-edge";
import { statusColor } from "./tones";
import { useGraphLayout } from "./use-graph-layout";

const nodeTypes: NodeTypes = { message: MessageNode, missing: MissingNode };
const edgeTypes: EdgeTypes = { thread: ThreadEdge };

const MINIMAP_UP_TO = 400;
/**
 * Up to this many nodes every one is drawn, panned out of view or not, so Tab reaches each message
 * (useGraphKeys brings it into view); past it only the visible ones are, so a thread of thousands
 * stays light to pan. A bigger thread's every message is in its sequence view and the timeline.
 */
const RENDER_ALL_UP_TO = 300;

interface GraphProps {
  thread: ThreadDetail;
  className?: string;
  /** Open on and follow the replay's current message at this zoom (the presenter's, read from afar), not the reader's own. */
  currentZoom?: number;
  /** Arrow keys pan the graph (not on the presenter, where they switch threads). */
  arrowKeysPan?: boolean;
}

/** Messages as nodes coloured by status, replies and branches as edges, laid out by dagre. */
export function ThreadGraph({ thread, className = THREAD_PANE_HEIGHT, currentZoom, arrowKeysPan = true }: GraphProps) {
  return (
    <ReactFlowProvider>
      <Graph thread={thread} className={className} currentZoom={currentZoom} arrowKeysPan={arrowKeysPan} />
    </ReactFlowProvider>
  );
}

function Graph({ thread, className, currentZoom, arrowKeysPan }: GraphProps) {
  const model = useMemo(() => graphModel(thread), [thread]);
  const { positions, pending } = useGraphLayout(model.signature, model.layout);
  // Not colorMode="system": React Flow reads the scheme once, and on the server it has none (light).
  const dark = usePrefersDark();
  const words = useVocabulary();
  const minimapColor = useCallback(
    (n: ThreadFlowNode) => (n.type === "message" ? statusColor(words, n.data.message.status, n.data.message.protocol) : "#d4d4d8"),
    [words],
  );
  const nodes = useMemo(
    () =>
      positions
        ? model.nodes.map((n): ThreadFlowNode => {
            const p = positions[n.id];
            return p ? { ...n, position: p } : { ...n, hidden: true };
          })
        : [],
    [model, positions],
  );

  const keys = useGraphKeys(arrowKeysPan !== false);
  const help = useId();
  // Up to 300 messages are Tab stops (RENDER_ALL_UP_TO): the first stop inside skips them all (WCAG 2.4.1).
  const end = useRef<HTMLSpanElement>(null);
  return (
    <div
      className={cn("relative rounded-md outline-none focus-visible:ring-2 focus-visible:ring-zinc-900 dark:focus-visible:ring-white", className)}
      data-testid="thread-graph"
      role="group"
      aria-label="Thread graph"
      aria-describedby={help}
      tabIndex={0}
      {...keys}
    >
      <p id={help} className="sr-only">
        {arrowKeysPan === false ? "" : "Arrow keys pan the graph, plus and minus zoom. "}Tab goes through its messages; every message is also in the sequence view.
      </p>
      <button
        type="button"
        className="sr-only z-20 rounded-md bg-white px-2 py-1 text-xs font-medium text-zinc-900 shadow outline-none focus:not-sr-only focus:absolute focus:right-3 focus:top-3 focus-visible:ring-2 focus-visible:ring-zinc-900 dark:bg-zinc-900 dark:text-zinc-100 dark:focus-visible:ring-white"
        onClick={() => end.current?.focus()}
      >
        Skip past the graph
      </button>
      {pending ? (
        <p role="status" className="absolute left-3 top-3 z-10 rounded-md bg-white/90 px-2 py-1 text-xs text-zinc-600 shadow dark:bg-zinc-900/90 dark:text-zinc-300">
          Laying out {thread.messages.length.toLocaleString("en-US")} messages…
        </p>
      ) : null}
      {positions ? (
        <ReactFlow
          nodes={nodes}
          edges={model.edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          onlyRenderVisibleElements={model.nodes.length > RENDER_ALL_UP_TO}
          minZoom={0.01}
          maxZoom={2}
          colorMode={dark ? "dark" : "light"}
          proOptions={{ hideAttribution: true }}
          ariaLabelConfig={{ "controls.ariaLabel": "Graph zoom controls" }}
        >
          <Background gap={24} size={1} />
          <Controls showInteractive={false} showFitView={false}>
            <FitButton positions={positions} />
          </Controls>
          {/* Every minimap node watches the store: past a few hundred it costs more than it shows. */}
          {model.nodes.length <= MINIMAP_UP_TO ? <MiniMap<ThreadFlowNode> pannable zoomable nodeColor={minimapColor} ariaLabel="Overview of the whole graph" /> : null}
          <FollowReplay thread={thread} zoom={currentZoom} />
          <OpenOnce thread={thread} positions={positions} zoom={currentZoom} />
        </ReactFlow>
      ) : null}
      <span ref={end} tabIndex={-1} className="sr-only">
        End of the thread graph
      </span>
    </div>
  );
}

/** Fit the whole graph, however small that makes it. */
function FitButton({ positions }: { positions: Positions }) {
  const flow = useReactFlow();
  const size = useStore((s) => [s.width, s.height] as const, (a, b) => a[0] === b[0] && a[1] === b[1]);
  return (
    <ControlButton onClick={() => void flow.setViewport(viewportToFit(Object.values(positions), size[0], size[1]), { duration: 300 })} aria-label="Fit the whole graph" title="Fit the whole graph">
      <svg aria-hidden viewBox="0 0 16 16" className="size-3 fill-none stroke-current" strokeWidth="1.5"><path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" /></svg>
    </ControlButton>
  );
}

/**
 * Open the graph once the pane has a size (see openingViewport); after that the viewport is the
 * reader's. Back on this tab mid-replay, it opens on the replay's message, as FollowReplay would.
 */
function OpenOnce({ thread, positions, zoom }: { thread: ThreadDetail; positions: Positions; zoom?: number }) {
  const size = useStore((s) => (s.width > 0 && s.height > 0 ? `${s.width}x${s.height}` : null));
  const flow = useReactFlow();
  const { step } = useReplayState();
  const current = step === null ? undefined : thread.messages[step]?.key;
  const done = useRef(false);
  useEffect(() => {
    if (!size || done.current) return;
    const [width, height] = size.split("x").map(Number) as [number, number];
    const viewport = openingViewport(positions, width, height, current, zoom);
    if (!viewport) return;
    done.current = true;
    void flow.setViewport(viewport);
  }, [size, flow, positions, current, zoom]);
  return null;
}

/** While replaying, keep the current message in view. */
function FollowReplay({ thread, zoom }: { thread: ThreadDetail; zoom?: number }) {
  const { step } = useReplayState();
  const flow = useReactFlow();
  const key = step === null ? null : thread.messages[step]?.key;
  useEffect(() => {
    if (!key) return;
    const node = flow.getNode(key);
    if (node) void flow.setCenter(node.position.x + NODE_W / 2, node.position.y + NODE_H / 2, { zoom: zoom ?? followZoom(flow.getZoom()), duration: 300 });
  }, [key, flow, zoom]);
  return null;
}
