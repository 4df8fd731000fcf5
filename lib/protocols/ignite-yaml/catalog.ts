// IGNITE v2 (YAML)'s words for the UI. Pure: safe for client code.
import { GONE, SEEN, statusBecame, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const IGNITE_YAML_CATALOG: ProtocolCatalog = {
  protocol: "ignite-yaml",
  label: "IGNITE v2 (YAML)",
  statuses: [...STATUSES, GONE],
  folders: ["queue", "processed", "dead_letter", "archive"],
  workspace: "queue/<agent>/*.yaml",
  columns: ["queued", "processing", "delivered", "retrying", "dead"],
  overdue: "Stuck",
  oldest: "Oldest queued",
  // Its queue: a processing message is its agent's, not waiting.
  waiting: ["queued", "retrying"],
  retryWaits: ["retrying"],
  working: ["processing"],
  deadLetterStatus: "dead",
  deadLetterPlace: "queue/dead_letter/",
  headers: false,
  // As IGNITE v3: a file's folder is its status, and the agent deletes it once done with it.
  hops: [
    { id: "delivery", label: "queue → processed", start: SEEN, end: statusBecame("delivered") },
    { id: "handling", label: "processed → gone", start: statusBecame("delivered"), end: { kinds: ["gone", "trimmed"] } },
  ],
};
