import "server-only";
// Retry now: exactly the queue monitor's retry (`process_retry`, see retry.ts), by an operator.
import fs from "node:fs/promises";
import { assertFree, moveWithContent, resolveForWrite } from "@/lib/operations/fs";
import { assertStillText, readTextInsideRoot } from "@/lib/operations/read-text";
import type { FileActionPlan, FileActionTarget } from "@/lib/protocols/types";
import { ApiError } from "@/lib/server/api-error";
import { queuePath, splitRuntime } from "./paths";
import { splitHeaderBlock, universalNewlines } from "./reference";
import { backoffCapSeconds, drawBackoffSeconds, upstreamRetry, upstreamRetryCount } from "./retry";

/**
 * A file without an empty line after its headers is "invalid" to Mailroom, but the monitor retries
 * it all the same (every line read as a header, an empty line appended), so Retry now does too.
 */
function retriable(t: FileActionTarget, text: string): boolean {
  if (t.folder !== "processed") return false;
  if (t.status === "processing" || t.status === "error") return true;
  return t.status === "invalid" && splitHeaderBlock(universalNewlines(text)).separator === null;
}

/**
 * Error-* removed, every status line retrying, Retry-Count n+1, Last-Retry-At now,
 * Next-Retry-After now + full-jitter backoff, LF endings, BOM and file mode kept, and the file
 * moved from processed/ back to queue/<agent>/ under the same name.
 */
export async function planRetry(t: FileActionTarget): Promise<FileActionPlan> {
  const { folder, status } = t;
  const text = folder === "processed" ? await readTextInsideRoot(t.root, t.relPath) : "";
  if (!retriable(t, text)) {
    throw new ApiError(409, "not_applicable", `Retry now works on a message stuck, processing or failed (error) in processed/; this one is ${status} in ${folder}/. Nothing was changed.`);
  }
  const read = upstreamRetryCount(text);
  if (!read.ok) throw new ApiError(409, "bad_retry_count", `${read.reason} Nothing was changed.`);
  const targetRel = queuePath(splitRuntime(t.relPath).prefix, t.agent, t.relPath.slice(t.relPath.lastIndexOf("/") + 1));
  const targetAbs = await resolveForWrite(t.root, targetRel);
  await assertFree(targetAbs, targetRel, "");
  // Moved on since it was read (a discard or the monitor, racing this retry): a 409, as any file gone is.
  const { mode } = await fs.stat(t.abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") throw new ApiError(409, "source_gone", `${t.relPath} is no longer there: it moved or was deleted meanwhile. Nothing was changed.`);
    throw err;
  });
  const count = read.count;
  const cap = backoffCapSeconds(count);
  return {
    description: `move ${t.relPath} back to ${targetRel} as retry ${count + 1}, due after a random backoff of 0–${cap} s`,
    path: targetRel,
    touched: [targetRel],
    async run() {
      await assertStillText(t.root, t.relPath, text);
      const delay = drawBackoffSeconds(count);
      const { text: content } = upstreamRetry(text, count, new Date(), delay);
      await moveWithContent(t.abs, targetAbs, content, targetRel, mode & 0o7777);
      return `as retry ${count + 1}, next attempt in ${delay} s`;
    },
  };
}
