import "server-only";
import type { PathInput } from "@/lib/actions";
import { ApiError } from "@/lib/server/errors";
import { finish, type Actor, type Plan } from "./finish";
import { moveFile, resolveForWrite } from "./fs";
import { archivePathOf, unarchivePathOf } from "./paths";
import { assertFree, locateTarget } from "./target";

export type DiscardRequest = PathInput & Actor;

/** Move the file, unchanged, to `<runtime>/archive/mailroom/<same relative path>`: restorable. */
export async function planDiscard(key: string, req: DiscardRequest): Promise<Plan> {
  const t = await locateTarget(key, req.path);
  const archiveRel = t.summary.folder === "archive" ? null : archivePathOf(t.relPath);
  if (!archiveRel) throw new ApiError(409, "not_applicable", `${t.relPath} is already discarded (in the archive). Nothing was changed.`);
  const archiveAbs = await resolveForWrite(t.root, archiveRel);
  await assertFree(archiveAbs, archiveRel, "an archived file has that name");
  return {
    key: t.key,
    description: `move ${t.relPath} to ${archiveRel} (restorable)`,
    async run() {
      return finish(t, { kind: "discard", actor: req.actor, to: archiveRel, touched: [archiveRel] }, () => moveFile(t.abs, archiveAbs, archiveRel));
    },
  };
}

/** Move a discarded file back where it was; a 409 when that place is taken. */
export async function planRestore(key: string, req: DiscardRequest): Promise<Plan> {
  const t = await locateTarget(key, req.path);
  const originalRel = t.summary.folder === "archive" ? unarchivePathOf(t.relPath) : null;
  if (!originalRel) throw new ApiError(409, "not_applicable", `${t.relPath} is not in the archive, so there is nothing to restore. Nothing was changed.`);
  const originalAbs = await resolveForWrite(t.root, originalRel);
  await assertFree(originalAbs, originalRel, "its original place is taken by another file");
  return {
    key: t.key,
    description: `move ${t.relPath} back to ${originalRel}`,
    async run() {
      return finish(t, { kind: "restore", actor: req.actor, to: originalRel, touched: [originalRel] }, () => moveFile(t.abs, originalAbs, originalRel));
    },
  };
}

export async function discardMessage(key: string, req: DiscardRequest) {
  return (await planDiscard(key, req)).run();
}

export async function restoreMessage(key: string, req: DiscardRequest) {
  return (await planRestore(key, req)).run();
}
