// IGNITE v2 statuses: the same words as IGNITE v3, set by the folder a file sits in. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "queued", label: "Queued", state: "open" },
  { id: "retrying", label: "Retrying", state: "open" },
  { id: "processing", label: "Processing", state: "open" },
  { id: "delivered", label: "Delivered", state: "done" },
  { id: "completed", label: "Completed", state: "done" },
  { id: "dead", label: "Dead", state: "failed" },
  { id: "discarded", label: "Discarded", state: "done" },
];

/**
 * Every status comes from the entry's own file (its folder), so nothing depends on another entry:
 * a dead letter's `holds` link lets the core mark the original dead, as it does for IGNITE v3.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  return [...entries];
}
