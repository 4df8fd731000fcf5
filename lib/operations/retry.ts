import "server-only";
import path from "node:path";
import type { PathInput } from "@/lib/actions";
import { markRetrying, retryBackoffSeconds, retryCountOf } from "@/lib/protocols/ignite/build";
import { ApiError } from "@/lib/server/errors";
import { finish, type Actor, type Plan } from "./finish";
import { moveWithContent, resolveForWrite } from "./fs";
import { queuePath } from "./paths";
import { assertFree, locateTarget, readText } from "./target";

export type RetryRequest = PathInput & Actor;

/**
 * Exactly the queue monitor's retry (`process_retry`): Error-* removed, status retrying,
 * Retry-Count n+1, Last-Retry-At now, Next-Retry-After now + full-jitter backoff, and the file
 * moved from processed/ back to queue/<agent>/ under the same name.
 */
export async function planRetry(key: string, req: RetryRequest): Promise<Plan> {
  const t = await locateTarget(key, req.path);
  const { folder, status } = t.summary;
  if (folder !== "processed" || status !== "processing") {
    throw new ApiError(409, "not_applicable", `Retry now works on a message stuck or processing in processed/; this one is ${status} in ${folder}/. Nothing was changed.`);
  }
  const targetRel = queuePath(t.prefix, t.summary.agent, path.posix.basename(t.relPath));
  const targetAbs = await resolveForWrite(t.root, targetRel);
  await assertFree(targetAbs, targetRel, "");
  const text = await readText(t);
  const count = retryCountOf(text);
  const cap = Math.min(300, 5 * 2 ** count);
  return {
    key: t.key,
    description: `move ${t.relPath} back to ${targetRel} as retry ${count + 1}, due after a random backoff of 0–${cap} s`,
    async run() {
      const now = new Date();
      const delay = retryBackoffSeconds(count);
      const content = markRetrying(text, now, new Date(now.getTime() + delay * 1000));
      const note = `as retry ${count + 1}, next attempt in ${delay} s`;
      return finish(t, { kind: "retry", actor: req.actor, to: targetRel, touched: [targetRel], note }, () => moveWithContent(t.abs, targetAbs, content, targetRel));
    },
  };
}

export async function retryMessage(key: string, req: RetryRequest) {
  return (await planRetry(key, req)).run();
}
