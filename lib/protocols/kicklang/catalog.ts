// KickLang's words for the UI. Pure: safe for client code.
import { GONE, SEEN, statusBecame, type ProtocolCatalog } from "@/lib/protocols/catalog-types";
import { STATUSES } from "./statuses";

export const KICKLANG_CATALOG: ProtocolCatalog = {
  protocol: "kicklang",
  label: "KickLang",
  statuses: [...STATUSES, GONE],
  folders: ["channel"],
  workspace: ".kicklang/channels/",
  columns: ["unanswered", "answered", "sent"],
  overdue: "Overdue",
  oldest: "Oldest open",
  headers: false,
  // A dispatched request is answered once the envelope that completes it (its correlation id) arrives.
  hops: [{ id: "answer", label: "dispatch → completed", start: SEEN, end: statusBecame("answered") }],
};
