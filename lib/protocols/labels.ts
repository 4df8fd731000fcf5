// The other names search accepts for a protocol (what it is called on screen is its catalog's label).
// Pure: no I/O, safe in client components (lib/protocols/index.ts is server-only).
import type { Protocol } from "@/lib/model";

/** Names people use for a protocol besides its id (`protocol:v2`), lowercase. */
export const PROTOCOL_ALIASES: ReadonlyMap<string, Protocol> = new Map([
  ["v3", "ignite"],
  ["v2", "ignite-yaml"],
  ["ignite-v2", "ignite-yaml"],
]);
