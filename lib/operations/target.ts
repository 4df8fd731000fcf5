import "server-only";
import { locateMessage } from "@/lib/journal";
import type { MessageSummary } from "@/lib/model";
import { adapterFor } from "@/lib/protocols";
import { openInsideRoot } from "@/lib/protocols/safe-open";
import { ApiError } from "@/lib/server/errors";
import { resolveForWrite } from "./fs";
import { refusalError } from "./read-text";

/** A message whose file is on disk right now, where the page said it was. */
export interface Target {
  key: string;
  summary: MessageSummary;
  /** The workspace root as configured. */
  root: string;
  /** Root-relative path of the file now. */
  relPath: string;
  /** Absolute path for writing (resolved inside the root, no links on the way). */
  abs: string;
}

/**
 * Find the message's file and check it is still the one the page showed (`shownPath`): a 404
 * for an unknown key, a 409 saying what happened when it moved or vanished. Nothing is written.
 */
export async function locateTarget(key: string, shownPath?: string): Promise<Target> {
  const loc = locateMessage(key);
  if (!loc) throw new ApiError(404, "not_found", `no message has the key "${key}"`);
  const { summary, root } = loc;
  // Only a protocol whose adapter plans actions on a message's own file (IGNITE v3).
  if (!adapterFor(summary.protocol)?.fileActions) {
    throw new ApiError(409, "unsupported", `Mailroom changes IGNITE (MIME) messages only; this one is ${summary.protocol}. Nothing was changed.`);
  }
  if (shownPath !== undefined && loc.path !== shownPath) {
    throw new ApiError(
      409,
      loc.path === null ? "source_gone" : "moved",
      loc.path === null
        ? `${shownPath} is gone since the page loaded (the message is now ${summary.status}). Nothing was changed.`
        : `The message moved since the page loaded: it was at ${shownPath} and is now at ${loc.path}. Reload and try again; nothing was changed.`,
    );
  }
  if (loc.path === null) {
    // A discarded message whose archived copy went (`ignite clean` empties .ignite/archive/): say so, and promise no undo.
    const archived = summary.folder === "archive";
    throw new ApiError(
      409,
      "source_gone",
      archived
        ? "Its archived copy is gone from disk (deleted, e.g. by a clean-up of the workspace), so it cannot be restored or moved; the journal keeps its content. Nothing was changed."
        : `The message's file is gone from disk (it is ${summary.status}); there is nothing to move. Nothing was changed.`,
    );
  }
  const abs = await resolveForWrite(root, loc.path);
  // Opened as a read would open it, and closed: a file Mailroom would not read, it does not move.
  await openInsideRoot(root, loc.path).then(({ handle }) => handle.close(), (err: unknown) => {
    throw refusalError(err, loc.path ?? "");
  });
  return { key, summary, root, relPath: loc.path, abs };
}
