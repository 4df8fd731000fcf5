import "server-only";
import type { PathInput } from "@/lib/actions";
import { planOnFile, type Actor, type Plan } from "./finish";
import { locateTarget } from "./target";

export type RetryRequest = PathInput & Actor;

/**
 * Retry now, as the protocol's own monitor retries (for IGNITE v3: `process_retry`, see its
 * adapter's retry-run.ts): the file goes back to its queue with its retry count stepped.
 */
export async function planRetry(key: string, req: RetryRequest): Promise<Plan> {
  return planOnFile(await locateTarget(key, req.path), "retry", {}, req.actor);
}

export async function retryMessage(key: string, req: RetryRequest) {
  return (await planRetry(key, req)).run();
}
