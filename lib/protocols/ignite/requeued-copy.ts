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

/** Whether anything is at `rel` inside the root (a path that would leave it holds nothing of it). */
const taken = (root: string, rel: string) => resolveForWrite(root, rel).then((abs) => fs.lstat(abs).then(() => true), () => false).catch(() => false);

/**
 * A 409 while the message the letter at `letterRel` was requeued to (`to`, from its mark) is still
 * where the requeue put it, or in processed/ beside it once the monitor handed it to its agent. The
 * page's Undo discards that copy first. A mark naming no path inside the root is not looked for.
 */
export async function assertRequeuedCopyGone(root: string, letterRel: string, to: string | null): Promise<void> {
  if (to === null) return;
  for (const rel of [to, handedOn(to)]) {
    if (await taken(root, rel)) {
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
  if (await taken(root, handed)) {
    throw new ApiError(409, "already_requeued", `${handed} already holds the message ${letterRel} holds: it was requeued before, and its agent took it. Discard this dead letter instead. Nothing was changed.`);
  }
}

/**
 * A 409 when a dead letter in `deadLetterDir` (root-relative) holds the message a restore would put
 * back at `restoreTo`: the copy of a requeue its Undo took back lies in the archive while the letter
 * is dead again, and restoring it would leave the message queued and dead at once. A letter is named
 * `<the original's name>_dlq_<seconds>` (ignite-mime.md, ignite-yaml.md); a letter's own restore is
 * not looked at.
 */
export async function assertNoLiveDeadLetter(root: string, deadLetterDir: string, restoreTo: string, relPath: string): Promise<void> {
  if (restoreTo.startsWith(`${deadLetterDir}/`)) return;
  const name = path.posix.basename(restoreTo);
  const stem = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;
  // The folder itself, never through a link (resolveForWrite checks the parents of what it is given).
  const names = await resolveForWrite(root, `${deadLetterDir}/${name}`)
    .then((abs) => fs.readdir(path.dirname(abs)))
    .catch(() => [] as string[]);
  const letter = names.find((n) => n.startsWith(`${stem}_dlq_`));
  if (letter) {
    throw new ApiError(409, "conflict", `${relPath} is held by the dead letter ${deadLetterDir}/${letter}: restored, the message would be queued and dead at once. Requeue or discard the dead letter instead. Nothing was changed.`);
  }
}
