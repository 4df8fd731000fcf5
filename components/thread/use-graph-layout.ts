import { useEffect, useRef, useState } from "react";
import { layoutGraph, type LayoutInput, type Positions } from "./graph-layout";

/** From this many nodes the layout runs in a worker (dagre takes about a second for 2,000). */
export const WORKER_FROM = 250;

// Layouts by graph signature: a poll that adds nothing reuses the last one.
const cache = new Map<string, Positions>();

function remember(signature: string, positions: Positions): void {
  cache.set(signature, positions);
  if (cache.size > 4) cache.delete(cache.keys().next().value ?? "");
}

function syncLayout(signature: string, input: LayoutInput): Positions {
  const hit = cache.get(signature);
  if (hit) return hit;
  const positions = layoutGraph(input);
  remember(signature, positions);
  return positions;
}

/**
 * Positions for every node. Small graphs are laid out during render; big ones in a worker, while
 * the previous layout stays on screen (`pending` is true meanwhile).
 */
export function useGraphLayout(signature: string, input: LayoutInput): { positions: Positions | null; pending: boolean } {
  // Decided by size alone, so the server render (no layout for big graphs) and hydration agree.
  const big = input.nodes.length >= WORKER_FROM;
  const [, setDone] = useState(0);
  const last = useRef<Positions | null>(null);
  const worker = useRef<{ worker: Worker; id: number; inflight: string | null } | null>(null);

  useEffect(() => {
    if (!big || cache.has(signature) || worker.current?.inflight === signature) return;
    if (!worker.current) {
      worker.current = { worker: new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module" }), id: 0, inflight: null };
    }
    const w = worker.current;
    const id = ++w.id;
    w.inflight = signature;
    performance.mark("mailroom:layout-start");
    w.worker.onmessage = (e: MessageEvent<{ id: number; positions: Positions }>) => {
      if (e.data.id !== id) return;
      w.inflight = null;
      performance.measure("mailroom:layout", "mailroom:layout-start");
      remember(signature, e.data.positions);
      setDone((n) => n + 1);
    };
    // A worker that cannot start (blocked, old browser): lay out here after all.
    w.worker.onerror = () => {
      w.inflight = null;
      syncLayout(signature, input);
      setDone((n) => n + 1);
    };
    w.worker.postMessage({ id, input });
  }, [big, signature, input]);

  useEffect(() => () => worker.current?.worker.terminate(), []);

  const positions = big ? (cache.get(signature) ?? null) : syncLayout(signature, input);
  useEffect(() => {
    if (positions) last.current = positions;
  }, [positions]);
  // eslint-disable-next-line react-hooks/refs -- the previous layout is only a stand-in while the worker runs
  return { positions: positions ?? last.current, pending: positions === null };
}
