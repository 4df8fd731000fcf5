// Which shogun actions an inbox message offers: mark read when unread, mark unread when read, one
// or many at once. Sending and replying are compose's. Pure.
import type { ActionDescriptor, ActionSubject } from "@/lib/protocols/actions";

const MARK_READ: ActionDescriptor = { id: "mark-read", verb: "Mark read", input: "none", bulk: true };
const MARK_UNREAD: ActionDescriptor = { id: "mark-unread", verb: "Mark unread", input: "none", bulk: true };

export function actionsFor(m: ActionSubject): ActionDescriptor[] {
  // Only a message still in an inbox, with an id to find it by when the writer rereads the inbox.
  if (m.path === null || m.folder !== "inbox" || !m.messageId) return [];
  if (m.status === "unread") return [MARK_READ];
  return m.status === "read" ? [MARK_UNREAD] : [];
}
