// Each action as the UI runs it: the POST, then a sentence saying what happened.
import type { ActionResult, RequeueInput } from "@/lib/actions";
import { routes } from "./keys";
import { postAction } from "./post-action";
import type { ActionOutcome } from "./use-action";

export async function requeueOutcome(key: string, input: RequeueInput): Promise<ActionOutcome> {
  const r = await postAction(key, "requeue", input);
  const { archived } = r;
  return {
    ok: true,
    text: `Requeued${input.body !== undefined ? " with the edited body" : ""}: now ${r.path}.`,
    href: routes.message(r.key),
    // A requeued dead letter was archived: undo takes the copy out of the queue, then restores the letter.
    undo: archived === undefined ? undefined : { label: "Undo", run: () => unrequeueOutcome(r, archived) },
  };
}

async function unrequeueOutcome(requeued: ActionResult, archived: NonNullable<ActionResult["archived"]>): Promise<ActionOutcome> {
  await postAction(requeued.key, "discard", { path: requeued.path });
  const letter = await postAction(archived.key, "restore", { path: archived.path });
  return { ok: true, text: `Requeue undone: the dead letter is back at ${letter.path}; the requeued copy is in the archive.`, href: routes.message(letter.key) };
}

export async function retryOutcome(key: string, path: string | undefined): Promise<ActionOutcome> {
  const r = await postAction(key, "retry", { path });
  return { ok: true, text: `Back in the queue for a retry: ${r.path}.`, href: routes.message(r.key) };
}

export async function restoreOutcome(key: string, path: string | undefined): Promise<ActionOutcome> {
  const r = await postAction(key, "restore", { path });
  return { ok: true, text: `Restored to ${r.path}.`, href: routes.message(r.key) };
}

export async function discardOutcome(key: string, path: string | undefined): Promise<ActionOutcome> {
  const r = await postAction(key, "discard", { path });
  return {
    ok: true,
    text: `Discarded: moved to ${r.path}.`,
    href: routes.message(r.key),
    undo: { label: "Restore", run: () => restoreOutcome(r.key, r.path) },
  };
}
