import { BaseEdge, getBezierPath, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import { NODE_H, NODE_W } from "./graph-layout";
import type { ThreadFlowEdge } from "./graph-model";
import { useReplayPhase } from "./replay-store";

/**
 * A requeue points back up at the message it revived: drawn as an arc along the right-hand sides
 * of the two cards (from the bottom and top handles' positions) rather than through them.
 */
function sideArc(p: EdgeProps<ThreadFlowEdge>): [string, number, number] {
  const sx = p.sourceX + NODE_W / 2;
  const sy = p.sourceY - NODE_H / 2;
  const tx = p.targetX + NODE_W / 2;
  const ty = p.targetY + NODE_H / 2;
  const bulge = 48 + Math.min(120, Math.abs(sy - ty) / 4);
  return [`M ${sx} ${sy} C ${sx + bulge} ${sy}, ${tx + bulge} ${ty}, ${tx + 2} ${ty}`, Math.max(sx, tx) + bulge * 0.75, (sy + ty) / 2];
}

/** An edge that fades while the message it leads to is still in the future of a replay. */
export const ThreadEdge = memo(function ThreadEdge(props: EdgeProps<ThreadFlowEdge>) {
  const phase = useReplayPhase(props.data?.targetIndex ?? 0);
  const [path, labelX, labelY] = props.data?.kind === "requeue" ? sideArc(props) : getBezierPath(props);
  return (
    <BaseEdge
      path={path}
      labelX={labelX}
      labelY={labelY}
      label={props.label}
      labelStyle={{ fontSize: 11, fill: props.style?.stroke }}
      labelBgPadding={[4, 2]}
      labelBgBorderRadius={4}
      markerEnd={props.markerEnd}
      style={{ ...props.style, opacity: phase === "future" ? 0.12 : 1, strokeWidth: phase === "current" ? 3 : props.style?.strokeWidth }}
    />
  );
});
