import type { LifecycleStep, ObservedPlace } from "@/lib/protocols/types";

export type Place = ObservedPlace;

/** Names which step of its life took a message from one observation to the next (its protocol decides). */
export type StepNamer = (before: Place, after: Place) => LifecycleStep | null;

/** The journal's event for a move, of the kind its protocol named (`step`), else a plain move. */
export function describeMove(before: Place, after: Place, step: LifecycleStep | null): { kind: string; detail: string } {
  const where = `${before.path ?? "(gone)"} → ${after.path ?? "(gone)"}`;
  const statusChange = before.status !== after.status ? ` (${before.status} → ${after.status})` : "";
  if (!step) return { kind: "moved", detail: `${where}${statusChange}` };
  if (step.kind === "converted") return { kind: step.kind, detail: `converted ${step.how}: ${where}` };
  // Keyed by the contract's step kinds, so each has its words and the type checker holds that.
  const details: Record<typeof step.kind, string> = {
    discarded: `moved to the archive: ${where}`,
    restored: `restored from the archive: ${where}${statusChange}`,
    requeued: `back in ${after.path ?? "?"} as ${after.status}`,
    retried: `retry ${after.retryCount}: ${where}`,
  };
  return { kind: step.kind, detail: details[step.kind] };
}
