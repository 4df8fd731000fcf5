import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { RequeueInput } from "@/lib/actions";
import { deadLetterHolding, locateMessage } from "@/lib/journal";
import { NAME_PATTERN } from "@/lib/model";
import { parseDeadLetterBody, splitHeaderBlock } from "@/lib/protocols/ignite";
import { ApiError } from "@/lib/server/errors";
import { assertSendableBody, requeuedText } from "./content";
import { finish, type Actor, type Plan } from "./finish";
import { createFile, moveFile, moveWithContent, resolveForWrite } from "./fs";
import { archivePathOf, isDeadLetterQueue, originalNameOf, queuePath } from "./paths";
import { assertFree, assertQueue, locateTarget, readText, type Target } from "./target";

export type RequeueRequest = RequeueInput & Actor;

/** A dead original (its file gone) is requeued through the dead letter that holds it. */
function resolveKey(key: string, req: RequeueRequest): string {
  if (req.path !== undefined) return key;
  const loc = locateMessage(key);
  if (loc?.summary.status === "dead" && loc.path === null) return deadLetterHolding(key) ?? key;
  return key;
}

function heldQueueOf(t: Target): string | null {
  const held = t.summary.deadLetterOf === null ? null : locateMessage(t.summary.deadLetterOf);
  const agent = held?.summary.agent;
  return agent !== undefined && NAME_PATTERN.test(agent) && !isDeadLetterQueue(agent) ? agent : null;
}

/** Dead letter → the original, written to queue/<to>/<original_file>; then the dead letter is archived. */
async function planDeadLetter(t: Target, req: RequeueRequest): Promise<Plan> {
  const text = await readText(t);
  const info = parseDeadLetterBody(splitHeaderBlock(text).body);
  if (info.originalText === null) {
    throw new ApiError(409, "no_original", `${t.relPath} holds no readable original message (original_message), so there is nothing to requeue. Nothing was changed.`);
  }
  // The queue it failed in, as the journal saw it: with several recipients, not always the first To.
  const to = req.to ?? heldQueueOf(t) ?? info.originalAgent;
  if (!to) throw new ApiError(400, "to_required", "to: the original message names no queue (To:); choose the queue to requeue it to");
  await assertQueue(t, to);
  const targetRel = queuePath(t.prefix, to, originalNameOf(t.relPath, info.originalFile));
  const archiveRel = archivePathOf(t.relPath);
  if (!archiveRel) throw new ApiError(409, "not_applicable", `${t.relPath} cannot be archived. Nothing was changed.`);
  const [targetAbs, archiveAbs] = await Promise.all([resolveForWrite(t.root, targetRel), resolveForWrite(t.root, archiveRel)]);
  await assertFree(targetAbs, targetRel, "the message may have been requeued already");
  await assertFree(archiveAbs, archiveRel, "an archived file has that name");
  const edited = req.body !== undefined;
  return {
    key: t.key,
    description: `write the original message${edited ? " with the edited body" : ""} to ${targetRel}, then move the dead letter to ${archiveRel}`,
    async run() {
      const content = requeuedText(info.originalText ?? "", { requeuedFrom: t.relPath, at: new Date(), body: req.body });
      return finish(t, { kind: "requeue", actor: req.actor, to: targetRel, touched: [targetRel, archiveRel], note: noteFor(archiveRel, edited), archived: archiveRel }, async () => {
        await createFile(targetAbs, content, targetRel);
        try {
          await moveFile(t.abs, archiveAbs, archiveRel);
        } catch (err) {
          // Someone else took the dead letter first: take ours back so the message exists once.
          await fs.unlink(targetAbs).catch(() => undefined);
          throw err;
        }
      });
    },
  };
}

function noteFor(archiveRel: string | null, edited: boolean): string {
  return [archiveRel ? `(dead letter archived to ${archiveRel})` : "", edited ? "with an edited body" : ""].filter(Boolean).join(" ");
}

/** Stuck or processing in processed/ → back to queue/<agent or to>/<same name>, lifecycle headers removed. */
async function planProcessed(t: Target, req: RequeueRequest): Promise<Plan> {
  const to = req.to ?? t.summary.agent;
  await assertQueue(t, to);
  const targetRel = queuePath(t.prefix, to, path.posix.basename(t.relPath));
  const targetAbs = await resolveForWrite(t.root, targetRel);
  await assertFree(targetAbs, targetRel, "");
  const text = await readText(t);
  const edited = req.body !== undefined;
  return {
    key: t.key,
    description: `move ${t.relPath} back to ${targetRel} as a fresh message${edited ? " with the edited body" : ""}`,
    async run() {
      const content = requeuedText(text, { requeuedFrom: t.relPath, at: new Date(), body: req.body });
      return finish(t, { kind: "requeue", actor: req.actor, to: targetRel, touched: [targetRel], note: noteFor(null, edited) }, () => moveWithContent(t.abs, targetAbs, content, targetRel));
    },
  };
}

/** Check a requeue and say what it will do (nothing is written until `run`). */
export async function planRequeue(key: string, req: RequeueRequest): Promise<Plan> {
  if (req.body !== undefined) assertSendableBody(req.body);
  const t = await locateTarget(resolveKey(key, req), req.path);
  const { folder, status } = t.summary;
  if (folder === "dead_letter") return planDeadLetter(t, req);
  if (folder === "processed" && (status === "processing" || status === "error")) return planProcessed(t, req);
  throw new ApiError(
    409,
    "not_applicable",
    `Requeue works on a dead letter, or a message stuck, processing or failed (error) in processed/; this one is ${status} in ${folder}/. Nothing was changed.`,
  );
}

export async function requeueMessage(key: string, req: RequeueRequest) {
  return (await planRequeue(key, req)).run();
}
