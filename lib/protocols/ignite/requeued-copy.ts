import "server-only";
// The checks around a dead letter's requeue, shared by IGNITE v3 and v2 (one queue layout): a letter
// a requeue archived comes back only once its requeued message is gone, else it would be both live
// and dead; and a letter is not requeued again once its agent took the copy a requeue wrote.
import fs from "node:fs/promises";
import path from "node:path";
import { resolveForWrite } from "@/lib/operations/fs";
import { ApiError } from "@/lib/server/api-error";

/** processed/ beside a queue file: where the monitor hands it to its agent. */
const handedOn = (rel: string) => `${path.posix.dirname(rel)}/processed/${path.posix.basename(rel)}`;

/**
 * A 409 while the message the letter at `letterRel` was requeued to (`to`, from its mark) is still
 * where the requeue put it, or in processed/ beside it once the monitor handed it to its agent. The
 * page's Undo discards that copy first. A mark naming no path inside the root is not looked for.
 */
export async function assertRequeuedCopyGone(root: string, letterRel: string, to: string | null): Promise<void> {
  if (to === null) return;
  for (const rel of [to, handedOn(to)]) {
    const abs = await resolveForWrite(root, rel).catch(() => null);
    if (abs && (await fs.lstat(abs).catch(() => null))) {
      throw new ApiError(409, "conflict", `${letterRel} was requeued, and its message is still at ${rel}: discard that first (or undo the requeue), so it is not both live and dead. Nothing was changed.`);
    }
  }
}

/**
 * A 409 when processed/ beside `targetRel`, where a requeue of the letter at `letterRel` writes its
 * original, already holds it: a requeue that stopped before archiving its letter (a crash between
 * its two steps) left the letter unmarked, and its agent took the copy; a second requeue would
 * deliver the message twice.
 */
export async function assertNotRequeuedBefore(root: string, letterRel: string, targetRel: string): Promise<void> {
  const handed = handedOn(targetRel);
  const abs = await resolveForWrite(root, handed).catch(() => null);
  if (abs && (await fs.lstat(abs).catch(() => null))) {
    throw new ApiError(409, "already_requeued", `${handed} already holds the message ${letterRel} holds: it was requeued before, and its agent took it. Discard this dead letter instead. Nothing was changed.`);
  }
}
