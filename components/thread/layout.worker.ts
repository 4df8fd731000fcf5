// Lays out big thread graphs off the main thread, so the page stays responsive meanwhile.
import { layoutGraph, type LayoutInput } from "./graph-layout";

self.onmessage = (event: MessageEvent<{ id: number; input: LayoutInput }>) => {
  const { id, input } = event.data;
  self.postMessage({ id, positions: layoutGraph(input) });
};
