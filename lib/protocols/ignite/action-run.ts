import "server-only";
// IGNITE v3's operator actions on a message's file (docs/protocols/ignite-mime.md "What Mailroom
// writes"): requeue, retry now, discard and restore, planned from the file on disk (the plan is
// the dry run, `run` the write). lib/operations finds the file by key and journals the action.
import fs from "node:fs/promises";
import { NAME_PATTERN } from "@/lib/model";
import { assertFree, createFile, moveFile, moveRewritten, resolveForWrite, takeBack } from "@/lib/operations/fs";
import { assertStillText, readTextInsideRoot } from "@/lib/operations/read-text";
import type { FileActionPlan, FileActionTarget, FileActions } from "@/lib/protocols/types";
import { ApiError } from "@/lib/server/api-error";
import { parseDeadLetterBody } from "./dead-letter";
import { archivePathOf, DEAD_LETTER, originalNameOf, queueDir, queuePath, splitRuntime, unarchivePathOf } from "./paths";
import { splitHeaderBlock } from "./reference";
import { markedRequeued, requeuedText, requeuedTo, unmarked } from "./requeued";
import { assertNoLiveDeadLetter, assertNotRequeuedBefore, assertRequeuedCopyGone } from "./requeued-copy";
import { planRetry } from "./retry-run";

type Input = { to?: string; body?: string };
const readText = (t: FileActionTarget) => readTextInsideRoot(t.root, t.relPath);
const prefixOf = (t: FileActionTarget) => splitRuntime(t.relPath).prefix;

/** `to` must name an agent's queue folder that exists (a real folder, not the dead-letter queue). */
async function assertQueue(t: FileActionTarget, agent: string): Promise<void> {
  const dir = queueDir(prefixOf(t), agent);
  // lstat: a symlinked queue folder is refused, and said to be one.
  const st = agent === DEAD_LETTER ? null : await fs.lstat(await resolveForWrite(t.root, dir)).catch(() => null);
  if (st?.isSymbolicLink()) throw new ApiError(400, "unknown_queue", `to: ${dir} is a link; Mailroom never writes through links`);
  if (!st?.isDirectory()) {
    throw new ApiError(400, "unknown_queue", `to: "${agent}" is not an agent queue in this workspace (there is no folder ${dir}/)`);
  }
}

function noteFor(archiveRel: string | null, edited: boolean): string {
  return [archiveRel ? `(dead letter archived to ${archiveRel})` : "", edited ? "with an edited body" : ""].filter(Boolean).join(" ");
}

/** Dead letter → the original, written to queue/<to>/<original_file>; then the dead letter is archived. */
async function requeueDeadLetter(t: FileActionTarget, input: Input): Promise<FileActionPlan> {
  const text = await readText(t);
  const info = parseDeadLetterBody(splitHeaderBlock(text).body);
  if (info.originalText === null) {
    throw new ApiError(409, "no_original", `${t.relPath} holds no readable original message (original_message), so there is nothing to requeue. Nothing was changed.`);
  }
  // The queue it failed in, as the journal saw it: with several recipients, not always the first To.
  const held = t.heldAgent !== null && NAME_PATTERN.test(t.heldAgent) && t.heldAgent !== DEAD_LETTER ? t.heldAgent : null;
  const to = input.to ?? held ?? info.originalAgent;
  if (!to) throw new ApiError(400, "to_required", "to: the original message names no queue (To:); choose the queue to requeue it to");
  await assertQueue(t, to);
  const targetRel = queuePath(prefixOf(t), to, originalNameOf(t.relPath, info.originalFile));
  const archiveRel = archivePathOf(t.relPath);
  if (!archiveRel) throw new ApiError(409, "not_applicable", `${t.relPath} cannot be archived. Nothing was changed.`);
  const [targetAbs, archiveAbs] = await Promise.all([resolveForWrite(t.root, targetRel), resolveForWrite(t.root, archiveRel)]);
  await assertFree(targetAbs, targetRel, "the message may have been requeued already");
  await assertNotRequeuedBefore(t.root, t.relPath, targetRel);
  await assertFree(archiveAbs, archiveRel, "an archived file has that name");
  const edited = input.body !== undefined;
  return {
    description: `write the original message${edited ? " with the edited body" : ""} to ${targetRel}, then move the dead letter to ${archiveRel}`,
    path: targetRel,
    touched: [targetRel, archiveRel],
    archived: archiveRel,
    async run() {
      const content = requeuedText(info.originalText ?? "", { requeuedFrom: t.relPath, at: new Date(), body: input.body });
      const letter = markedRequeued(text, targetRel);
      const made = await createFile(targetAbs, content, targetRel);
      try {
        // The letter as read for this plan, or nothing: a changed one is not archived under our mark.
        await assertStillText(t.root, t.relPath, text);
        await moveRewritten(t.abs, archiveAbs, letter, archiveRel);
      } catch (err) {
        // Someone else took the dead letter first: take ours back so the message exists once.
        await takeBack(targetAbs, made).catch(() => undefined);
        throw err;
      }
      return noteFor(archiveRel, edited);
    },
  };
}

/** Stuck or processing in processed/ → back to queue/<agent or to>/<same name>, lifecycle headers removed. */
async function requeueProcessed(t: FileActionTarget, input: Input): Promise<FileActionPlan> {
  const to = input.to ?? t.agent;
  await assertQueue(t, to);
  const targetRel = queuePath(prefixOf(t), to, t.relPath.slice(t.relPath.lastIndexOf("/") + 1));
  const targetAbs = await resolveForWrite(t.root, targetRel);
  await assertFree(targetAbs, targetRel, "");
  const text = await readText(t);
  const edited = input.body !== undefined;
  return {
    description: `move ${t.relPath} back to ${targetRel} as a fresh message${edited ? " with the edited body" : ""}`,
    path: targetRel,
    touched: [targetRel],
    async run() {
      await assertStillText(t.root, t.relPath, text);
      const content = requeuedText(text, { requeuedFrom: t.relPath, at: new Date(), body: input.body });
      // The same message back in its queue: it keeps its file's mode, as the monitor's own moves do.
      await moveRewritten(t.abs, targetAbs, content, targetRel);
      return noteFor(null, edited);
    },
  };
}

function planRequeue(t: FileActionTarget, input: Input): Promise<FileActionPlan> {
  const { folder, status } = t;
  if (folder === "dead_letter") return requeueDeadLetter(t, input);
  if (folder === "processed" && (status === "processing" || status === "error")) return requeueProcessed(t, input);
  throw new ApiError(
    409,
    "not_applicable",
    `Requeue works on a dead letter, or a message stuck, processing or failed (error) in processed/; this one is ${status} in ${folder}/. Nothing was changed.`,
  );
}

/** A move of the file, unchanged, to `to` (a 409 when it is taken). */
async function planMove(t: FileActionTarget, to: string, description: string, why: string): Promise<FileActionPlan> {
  const abs = await resolveForWrite(t.root, to);
  await assertFree(abs, to, why);
  return { description, path: to, touched: [to], run: () => moveFile(t.abs, abs, to).then(() => "") };
}

/** Move the file, unchanged, to `<runtime>/archive/mailroom/<same relative path>`: restorable. */
function planDiscard(t: FileActionTarget): Promise<FileActionPlan> {
  const archiveRel = t.folder === "archive" ? null : archivePathOf(t.relPath);
  if (!archiveRel) throw new ApiError(409, "not_applicable", `${t.relPath} is already discarded (in the archive). Nothing was changed.`);
  return planMove(t, archiveRel, `move ${t.relPath} to ${archiveRel} (restorable)`, "an archived file has that name");
}

/** Move an archived file back where it was (a requeued dead letter without its mark); a 409 when that place is taken. */
async function planRestore(t: FileActionTarget): Promise<FileActionPlan> {
  const originalRel = t.folder === "archive" ? unarchivePathOf(t.relPath) : null;
  if (!originalRel) throw new ApiError(409, "not_applicable", `${t.relPath} is not in the archive, so there is nothing to restore. Nothing was changed.`);
  await assertNoLiveDeadLetter(t.root, queueDir(prefixOf(t), DEAD_LETTER), originalRel, t.relPath);
  // Not UTF-8, or over 8 MiB: no requeue marked it, and it goes back as it is.
  const text = await readText(t).catch(() => null);
  const asItWas = text === null ? null : unmarked(text);
  if (text === null || asItWas === null) return planMove(t, originalRel, `move ${t.relPath} back to ${originalRel}`, "its original place is taken by another file");
  await assertRequeuedCopyGone(t.root, t.relPath, requeuedTo(text));
  const abs = await resolveForWrite(t.root, originalRel);
  await assertFree(abs, originalRel, "its original place is taken by another file");
  return {
    description: `move ${t.relPath} back to ${originalRel}, without the mark its requeue added`,
    path: originalRel,
    touched: [originalRel],
    async run() {
      await assertStillText(t.root, t.relPath, text);
      await moveRewritten(t.abs, abs, asItWas, originalRel);
      return "";
    },
  };
}

export const igniteFileActions: FileActions = {
  async plan(id, t, input) {
    switch (id) {
      case "requeue":
        return planRequeue(t, input);
      case "retry":
        return planRetry(t);
      case "discard":
        return planDiscard(t);
      case "restore":
        return planRestore(t);
      default:
        throw new ApiError(409, "not_applicable", `IGNITE messages have no action "${id}". Nothing was changed.`);
    }
  },
  archivePathOf,
  unarchivePathOf,
};
