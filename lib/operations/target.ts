import "server-only";
import fs from "node:fs/promises";
import { locateMessage } from "@/lib/journal";
import type { MessageSummary } from "@/lib/model";
import { openInsideRoot } from "@/lib/protocols/safe-open";
import { ApiError } from "@/lib/server/errors";
import { resolveForWrite } from "./fs";
import { isDeadLetterQueue, queueDir, splitRuntime } from "./paths";
import { readTextInsideRoot, refusalError } from "./read-text";

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
  /** ".ignite/" or "": how the root reaches the IGNITE runtime directory. */
  prefix: string;
}

/**
 * Find the message's file and check it is still the one the page showed (`shownPath`): a 404
 * for an unknown key, a 409 saying what happened when it moved or vanished. Nothing is written.
 */
export async function locateTarget(key: string, shownPath?: string): Promise<Target> {
  const loc = locateMessage(key);
  if (!loc) throw new ApiError(404, "not_found", `no message has the key "${key}"`);
  const { summary, root } = loc;
  if (summary.protocol !== "ignite") {
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
  return { key, summary, root, relPath: loc.path, abs, prefix: splitRuntime(loc.path).prefix };
}

/** The file's text, for operations that rewrite it: only whole, valid UTF-8 files are rewritten. Read from one safe open. */
export async function readText(t: Target): Promise<string> {
  return readTextInsideRoot(t.root, t.relPath);
}

/** `to` must name an agent's queue folder that exists (a real folder, not the dead-letter queue). */
export async function assertQueue(t: Target, agent: string): Promise<void> {
  const dir = queueDir(t.prefix, agent);
  // lstat: a symlinked queue folder is refused like a missing one.
  const st = isDeadLetterQueue(agent) ? null : await fs.lstat(await resolveForWrite(t.root, dir)).catch(() => null);
  if (!st?.isDirectory()) {
    throw new ApiError(400, "unknown_queue", `to: "${agent}" is not an agent queue in this workspace (there is no folder ${dir}/)`);
  }
}

/** A 409 when the target is taken: Mailroom never overwrites. */
export async function assertFree(abs: string, relPath: string, why: string): Promise<void> {
  const st = await fs.lstat(abs).catch(() => null);
  if (st) throw new ApiError(409, "target_exists", `${relPath} already exists${why ? ` (${why})` : ""}. Nothing was changed.`);
}
