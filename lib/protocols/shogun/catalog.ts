// multi-agent-shogun's words for the UI. Pure: safe for client code.
import { GONE, SEEN, statusBecame, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const SHOGUN_CATALOG: ProtocolCatalog = {
  protocol: "shogun",
  label: "shogun",
  statuses: [...STATUSES, GONE],
  folders: ["queue", "inbox", "tasks", "reports", "archive"],
  workspace: "queue/inbox/",
  // An agent's unread inbox, then its tasks from handed out to finished.
  columns: ["unread", "assigned", "in_progress", "blocked", "done", "failed"],
  overdue: null,
  oldest: "Oldest open",
  headers: false,
  // An inbox message's unread age: written until its reader marks it read.
  hops: [{ id: "unread", label: "unread age", start: SEEN, end: statusBecame("read") }],
};
