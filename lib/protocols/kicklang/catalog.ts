// KickLang's words for the UI. Pure: safe for client code.
import { GONE, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const KICKLANG_CATALOG: ProtocolCatalog = {
  protocol: "kicklang",
  label: "KickLang",
  statuses: [...STATUSES, GONE],
  folders: ["channel"],
  columns: ["unanswered", "answered", "sent"],
  overdue: "Overdue",
  oldest: "Oldest open",
  headers: false,
};
