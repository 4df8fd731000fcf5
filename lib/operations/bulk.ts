import "server-only";
import type { BulkInput, BulkItemResult, BulkResponse } from "@/lib/actions";
import { ApiError } from "@/lib/server/errors";
import { planMessageAction } from "./message-actions";

function failure(key: string, err: unknown): BulkItemResult {
  if (err instanceof ApiError) return { key, ok: false, error: { code: err.code, message: err.message } };
  console.error(`[mailroom] bulk action failed for ${key}:`, err);
  return { key, ok: false, error: { code: "internal", message: "Mailroom hit an unexpected error; the server log has the details." } };
}

/**
 * An explicit list of keys, one at a time, each on its own: one failure never stops the rest.
 * A dry run says what would happen to each (or why it would fail) and writes nothing.
 */
export async function runBulk(input: BulkInput, actor: string): Promise<BulkResponse> {
  const results: BulkItemResult[] = [];
  // Each key once: a key listed twice would run twice (a resend appended the same line again).
  for (const key of new Set(input.keys)) {
    try {
      const plan = await planMessageAction(key, input.action, { to: input.to, actor }, true);
      if (input.dryRun) {
        results.push({ key, ok: true, plan: plan.description });
        continue;
      }
      const done = await plan.run();
      results.push({ key, ok: true, path: done.path, newKey: done.key, plan: plan.description });
    } catch (err) {
      results.push(failure(key, err));
    }
  }
  return { results };
}
