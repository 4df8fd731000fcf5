import "server-only";
import { DEAD_LETTER_FOLDER, PROTOCOLS, type Folder, type Status } from "@/lib/model";
import { statusDefinition } from "@/lib/protocols";
import { refreshDuplicates } from "./duplicates";
import { FILE_LIFE } from "./file-life";
import type { HeldStatus } from "./held-status";
import { addEvent, nextSeq, type WriterParts } from "./writer-parts";

/** What a message was when a clean-up removed its file, in words (its status's own, from its catalog). */
function wasWhat(row: { status: Status; stuck: number; folder: Folder; protocol: string }): string {
  if (row.folder === DEAD_LETTER_FOLDER) return "a dead letter (its message never got through)";
  if (row.stuck) return `stuck in ${FILE_LIFE.stuck}`;
  const protocol = PROTOCOLS.find((p) => p === row.protocol);
  return statusDefinition(row.status, protocol).whenGone ?? row.status;
}

/**
 * A message whose file is gone: its content stays; it is completed, or dead if a dead letter
 * holds it. Gone in a clean-up (`sweep`: so many files went at once that no agent did it), it is
 * cleared, and its history says what it was when it went. Returns its key (null: not journaled).
 */
export function markGone(parts: WriterParts, held: HeldStatus, source: string, relPath: string, sweep?: { others: number; atMs: number }): string | null {
  const { sql } = parts;
  const row = sql("SELECT key, protocol, status, stuck, folder, message_id, dead_letter_of FROM messages WHERE source = ? AND path = ? AND locator = ''").get(source, relPath) as
    | { key: string; protocol: string; status: Status; stuck: number; folder: Folder; message_id: string | null; dead_letter_of: string | null }
    | undefined;
  if (!row) return null;
  // Only a dead letter still in dead_letter/ makes it dead: one archived after a requeue does not.
  const heldByDeadLetter = sql(`SELECT 1 FROM messages WHERE dead_letter_of = ? AND folder = '${DEAD_LETTER_FOLDER}' AND path IS NOT NULL LIMIT 1`).get(row.key);
  const kept = FILE_LIFE.kept.includes(row.status) || (row.status === FILE_LIFE.discarded && !sweep);
  const status: Status = heldByDeadLetter ? FILE_LIFE.held : kept ? row.status : sweep ? FILE_LIFE.cleared : FILE_LIFE.deleted;
  const atMs = parts.now();
  sql("UPDATE messages SET path = NULL, status = ?, stuck = 0, updated_ms = ?, seq = ? WHERE key = ?").run(status, atMs, nextSeq(parts), row.key);
  const how = sweep
    ? `was removed with ${sweep.others} other files at ${new Date(sweep.atMs).toISOString()}, a clean-up, not its agent: it was ${wasWhat(row)}`
    : "was deleted";
  addEvent(parts, row.key, atMs, "gone", `${relPath} ${how}; now ${status}`);
  refreshDuplicates(sql, source, row.message_id, atMs);
  if (row.dead_letter_of) held.settle(row.dead_letter_of);
  return row.key;
}
