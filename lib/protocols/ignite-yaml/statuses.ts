// IGNITE v2 statuses: the same words as IGNITE v3, set by the folder a file sits in. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";
import { IGNITE_CATALOG } from "@/lib/protocols/ignite/catalog";

const V2_WORDS = ["queued", "retrying", "processing", "delivered", "completed", "dead", "discarded"];

/** v3's definitions of the words v2 shares, so a status reads and looks the same in both. */
export const STATUSES: readonly StatusDefinition[] = IGNITE_CATALOG.statuses.filter((s) => V2_WORDS.includes(s.id));

/**
 * Every status comes from the entry's own file (its folder), so nothing depends on another entry:
 * a dead letter's `holds` link lets the core mark the original dead, as it does for IGNITE v3.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  return [...entries];
}
