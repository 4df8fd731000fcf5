import "server-only";
// The one check before a dead letter a requeue archived comes back, shared by IGNITE v3 and v2 (one
// queue layout): its requeued message must be gone, else it would be both live and dead.
import fs from "node:fs/promises";
import path from "node:path";
import { resolveForWrite } from "@/lib/operations/fs";
import { ApiError } from "@/lib/server/api-error";

/**
 * A 409 while the message the letter at `letterRel` was requeued to (`to`, from its mark) is still
 * where the requeue put it, or in processed/ beside it once the monitor handed it to its agent. The
 * page's Undo discards that copy first. A mark naming no path inside the root is not looked for.
 */
export async function assertRequeuedCopyGone(root: string, letterRel: string, to: string | null): Promise<void> {
  if (to === null) return;
  for (const rel of [to, `${path.posix.dirname(to)}/processed/${path.posix.basename(to)}`]) {
    const abs = await resolveForWrite(root, rel).catch(() => null);
    if (abs && (await fs.lstat(abs).catch(() => null))) {
      throw new ApiError(409, "conflict", `${letterRel} was requeued, and its message is still at ${rel}: discard that first (or undo the requeue), so it is not both live and dead. Nothing was changed.`);
    }
  }
}
