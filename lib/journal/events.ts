import type { LifecycleStep, ObservedPlace } from "@/lib/protocols/types";

export type Place = ObservedPlace;

/** Names which step of its life took a message from one observation to the next (its protocol decides). */
export type StepNamer = (before: Place, after: Place) => LifecycleStep | null;

/** The journal's event for a move, of the kind its protocol named (`step`), else a plain move. */
export function describeMove(before: Place, after: Place, step: LifecycleStep | null): { kind: string; detail: string } {
  const where = `${before.path ?? "(gone)"} → ${after.path ?? "(gone)"}`;
  const statusChange = before.status !== after.status ? ` (${before.status} → ${after.status})` : "";
  switch (step?.kind) {
    case "converted":
      return { kind: step.kind, detail: `converted ${step.how}: ${where}` };
    case "discarded":
      return { kind: step.kind, detail: `moved to the archive: ${where}` };
    case "restored":
      return { kind: step.kind, detail: `restored from the archive: ${where}${statusChange}` };
    case "requeued":
      return { kind: step.kind, detail: `back in ${after.path ?? "?"} as ${after.status}` };
    case "retried":
      return { kind: step.kind, detail: `retry ${after.retryCount}: ${where}` };
    case undefined:
      return { kind: "moved", detail: `${where}${statusChange}` };
  }
}
