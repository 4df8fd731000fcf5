// multi-agent-workflow: the read side the core calls. Detection, health and logs touch the disk (server only);
// placement, reading, statuses and liveness are pure.
import type { ProtocolReadSide } from "@/lib/protocols/layout";
import { detect, type WorkflowLayout } from "./detect";
import { workflowHealth } from "./liveness";
import { listWorkflowLogs, readWorkflowLog } from "./logs";
import { placeWorkflow } from "./paths";
import { read } from "./read";
import { resolve, STATUSES } from "./statuses";

export const workflowReadSide: ProtocolReadSide<WorkflowLayout> = {
  protocol: "workflow",
  detect,
  place: placeWorkflow,
  // Channels, acks and logs only grow (a shrink is a restart: read whole); heartbeats and the registry are rewritten.
  appendOnly: (place) => place.role === "channel" || place.role === "ack" || place.role === "log",
  // 1: a repeated id is kept apart as id@offset; journals read before merged the repeat into the first one's row.
  readerVersion: 1,
  read,
  statuses: STATUSES,
  resolve,
  health: workflowHealth,
  logs: listWorkflowLogs,
  readLog: readWorkflowLog,
};

export { detect, placeWorkflow, read, resolve, STATUSES, type WorkflowLayout };
export { WORKFLOW_DIR, type WorkflowPlace } from "./paths";
export { ACK_DUE_MS, threadOf, type ReadOptions } from "./read";
export { agentHealth, readHeartbeat, readRegistry, readRegistryFile, UNRESPONSIVE_AFTER_MS, type AgentHealth, type Liveness, type RegisteredAgent } from "./health";
export { actionsFor } from "./actions";
export { planAction } from "./action-run";
/** The protocol's writes (plan, then run), for the operations that send and change its messages. */
export * as writer from "./writer";
