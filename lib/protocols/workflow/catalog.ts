// multi-agent-workflow's words for the UI. Pure: safe for client code.
import { GONE, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const WORKFLOW_CATALOG: ProtocolCatalog = {
  protocol: "workflow",
  label: "workflow",
  statuses: [...STATUSES, GONE],
  folders: ["channel", "state", "logs"],
  columns: ["unacked", "received", "processed", "sent"],
  overdue: "Overdue",
  oldest: "Oldest open",
  headers: false,
};
