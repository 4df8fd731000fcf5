import "server-only";
import type { PathInput } from "@/lib/actions";
import { planOnFile, type Actor, type Plan } from "./finish";
import { locateTarget } from "./target";

export type DiscardRequest = PathInput & Actor;

/** Move the file, unchanged, to its protocol's discard archive: restorable. */
export async function planDiscard(key: string, req: DiscardRequest): Promise<Plan> {
  return planOnFile(await locateTarget(key, req.path), "discard", {}, req.actor);
}

/** Move a discarded file back where it was; a 409 when that place is taken. */
export async function planRestore(key: string, req: DiscardRequest): Promise<Plan> {
  return planOnFile(await locateTarget(key, req.path), "restore", {}, req.actor);
}

export async function discardMessage(key: string, req: DiscardRequest) {
  return (await planDiscard(key, req)).run();
}

export async function restoreMessage(key: string, req: DiscardRequest) {
  return (await planRestore(key, req)).run();
}
