// Where a path sits in a multi-agent-workflow tree, `.claude/workflow/<workflow-id>/…`
// (protocol doc "Layout"). Pure.
import { NAME_PATTERN } from "@/lib/model";
import { isDebris } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";

export const WORKFLOW_DIR = ".claude/workflow";

export interface WorkflowPlace extends Place {
  /** The workflow the file belongs to: task ids and agent names repeat across workflows. */
  workflowId: string;
}

const LOGS = new Set(["events.jsonl", "errors.jsonl", "actions.jsonl"]);

function inWorkflow(rest: readonly string[]): Omit<WorkflowPlace, "workflowId"> | null {
  const [top, second, third] = rest;
  if (top === "channel" && rest.length === 2) {
    if (second === "broadcast.jsonl") return { agent: "broadcast", folder: "channel", role: "channel" };
    if (second === "orchestrator.jsonl") return { agent: "orchestrator", folder: "channel", role: "channel" };
    return null;
  }
  if (top === "channel" && second === "agents" && rest.length === 3 && third) {
    const m = /^(.+)\.(jsonl|ack)$/.exec(third);
    if (!m?.[1] || !NAME_PATTERN.test(m[1])) return null;
    return { agent: m[1], folder: "channel", role: m[2] === "ack" ? "ack" : "channel" };
  }
  // Workflow-wide files belong to no one agent.
  if (top === "state" && second === "agents.json" && rest.length === 2) return { agent: "", folder: "state", role: "registry" };
  if (top === "state" && second === "heartbeat" && rest.length === 3 && third) {
    const agent = third.replace(/\.ts$/, "");
    return third.endsWith(".ts") && NAME_PATTERN.test(agent) ? { agent, folder: "state", role: "heartbeat" } : null;
  }
  if (top === "logs" && rest.length === 2 && second && LOGS.has(second)) return { agent: "", folder: "logs", role: "log" };
  return null;
}

export function placeWorkflow(relPath: string): WorkflowPlace | null {
  if (!relPath.startsWith(`${WORKFLOW_DIR}/`)) return null;
  const parts = relPath.slice(WORKFLOW_DIR.length + 1).split("/");
  const [workflowId, ...rest] = parts;
  if (!workflowId || !NAME_PATTERN.test(workflowId) || isDebris(parts)) return null;
  const place = inWorkflow(rest);
  return place && { ...place, workflowId };
}
