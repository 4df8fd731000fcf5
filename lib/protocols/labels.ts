// What each protocol is called on screen, and the other names search accepts for it.
// Pure: no I/O, safe in client components (lib/protocols/index.ts is server-only).
import type { Protocol } from "@/lib/model";

export const PROTOCOL_LABELS: Readonly<Record<Protocol, string>> = {
  ignite: "IGNITE v3",
  "ignite-yaml": "IGNITE v2",
  shogun: "shogun",
  workflow: "workflow",
  kicklang: "KickLang",
};

/** Names people use for a protocol besides its id (`protocol:v2`), lowercase. */
export const PROTOCOL_ALIASES: ReadonlyMap<string, Protocol> = new Map([
  ["v3", "ignite"],
  ["v2", "ignite-yaml"],
  ["ignite-v2", "ignite-yaml"],
]);
