import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { PathInput } from "@/lib/actions";
import { backoffCapSeconds, drawBackoffSeconds, splitHeaderBlock, universalNewlines, upstreamRetry, upstreamRetryCount } from "@/lib/protocols/ignite";
import { ApiError } from "@/lib/server/errors";
import { finish, type Actor, type Plan } from "./finish";
import { moveWithContent, resolveForWrite } from "./fs";
import { queuePath } from "./paths";
import { assertFree, locateTarget, readText, type Target } from "./target";

export type RetryRequest = PathInput & Actor;

/**
 * A file without an empty line after its headers is "invalid" to Mailroom, but the monitor retries
 * it all the same (every line read as a header, an empty line appended), so Retry now does too.
 */
function retriable(t: Target, text: string): boolean {
  const { folder, status } = t.summary;
  if (folder !== "processed") return false;
  if (status === "processing" || status === "error") return true;
  return status === "invalid" && splitHeaderBlock(universalNewlines(text)).separator === null;
}

/**
 * Exactly the queue monitor's retry (`process_retry`, see protocols/ignite/retry.ts): Error-*
 * removed, every status line retrying, Retry-Count n+1, Last-Retry-At now, Next-Retry-After now +
 * full-jitter backoff, LF endings, BOM and file mode kept, and the file moved from processed/
 * back to queue/<agent>/ under the same name.
 */
export async function planRetry(key: string, req: RetryRequest): Promise<Plan> {
  const t = await locateTarget(key, req.path);
  const { folder, status } = t.summary;
  const text = t.summary.folder === "processed" ? await readText(t) : "";
  if (!retriable(t, text)) {
    throw new ApiError(409, "not_applicable", `Retry now works on a message stuck, processing or failed (error) in processed/; this one is ${status} in ${folder}/. Nothing was changed.`);
  }
  const read = upstreamRetryCount(text);
  if (!read.ok) throw new ApiError(409, "bad_retry_count", `${read.reason} Nothing was changed.`);
  const targetRel = queuePath(t.prefix, t.summary.agent, path.posix.basename(t.relPath));
  const targetAbs = await resolveForWrite(t.root, targetRel);
  await assertFree(targetAbs, targetRel, "");
  const { mode } = await fs.stat(t.abs);
  const count = read.count;
  const cap = backoffCapSeconds(count);
  return {
    key: t.key,
    description: `move ${t.relPath} back to ${targetRel} as retry ${count + 1}, due after a random backoff of 0–${cap} s`,
    async run() {
      const delay = drawBackoffSeconds(count);
      const { text: content } = upstreamRetry(text, count, new Date(), delay);
      const note = `as retry ${count + 1}, next attempt in ${delay} s`;
      return finish(t, { kind: "retry", actor: req.actor, to: targetRel, touched: [targetRel], note }, () => moveWithContent(t.abs, targetAbs, content, targetRel, mode & 0o7777));
    },
  };
}

export async function retryMessage(key: string, req: RetryRequest) {
  return (await planRetry(key, req)).run();
}
