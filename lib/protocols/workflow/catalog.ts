// multi-agent-workflow's words for the UI. Pure: safe for client code.
import { GONE, SEEN, statusBecame, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const WORKFLOW_CATALOG: ProtocolCatalog = {
  protocol: "workflow",
  label: "workflow",
  statuses: [...STATUSES, GONE],
  folders: ["channel", "state", "logs"],
  workspace: ".claude/workflow/",
  columns: ["unacked", "received", "processed", "sent"],
  overdue: "Overdue",
  oldest: "Oldest open",
  // What liveness.ts says of an agent that beats, and the registry's word for one that finished its work.
  aliveHealth: ["healthy", "completed"],
  headers: false,
  // A task_assign waits for its agent's ack (received, or processed at once).
  hops: [{ id: "ack", label: "request → ack", start: SEEN, end: statusBecame("received", "processed") }],
};
