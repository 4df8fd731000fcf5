// IGNITE v2 (YAML)'s words for the UI. Pure: safe for client code.
import { GONE, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const IGNITE_YAML_CATALOG: ProtocolCatalog = {
  protocol: "ignite-yaml",
  label: "IGNITE v2 (YAML)",
  statuses: [...STATUSES, GONE],
  folders: ["queue", "processed", "dead_letter", "archive"],
  columns: ["queued", "processing", "delivered", "retrying", "dead"],
  overdue: "Stuck",
  oldest: "Oldest queued",
  headers: false,
};
