import "server-only";
// The actions a message offers, as its protocol decides them (lib/protocols/actions.ts), and what
// the page sends back with one so the server can tell the message changed since (a 409).
import type { MessageDetail } from "@/lib/model";
import { PROTOCOL_ACTIONS } from "@/lib/protocols";
import type { ActionCheck, ActionDescriptor } from "@/lib/protocols/actions";
import type { Db } from "./db";
import { REPLACING } from "./entry-rows";

type Detail = Omit<MessageDetail, "actions" | "actionCheck">;

/** The message's id inside its file ("" for a file that is one message). */
export function locatorOf(db: Db, key: string): string {
  return (db.prepare("SELECT locator FROM messages WHERE key = ?").pluck().get(key) as string | undefined) ?? "";
}

/**
 * The path it is at, and for a file of many entries the file's size and inode as the journal last
 * read them: what the page showed. (Not the mtime: the journal keeps it in whole milliseconds.)
 */
function checkOf(db: Db, m: Detail): ActionCheck {
  if (m.path === null) return {};
  const facts = db.prepare("SELECT size, ino FROM entry_files WHERE source = ? AND path = ?").get(m.source, m.path) as { size: number; ino: number } | undefined;
  if (!facts) return { path: m.path };
  // A replaced file being re-read has no inode kept yet (REPLACING): its partial size already says "changed".
  return { path: m.path, expect: facts.ino === REPLACING ? { size: facts.size } : { size: facts.size, ino: facts.ino } };
}

export function offeredActions(db: Db, m: Detail): { actions: ActionDescriptor[]; actionCheck: ActionCheck } {
  return { actions: PROTOCOL_ACTIONS[m.protocol].actionsFor({ ...m, locator: locatorOf(db, m.key) }), actionCheck: checkOf(db, m) };
}
