import "server-only";
import type { Protocol } from "@/lib/model";
import { igniteAdapter } from "./ignite";
import type { ProtocolAdapter } from "./types";

/** Every protocol Mailroom reads; each root is offered to each adapter. */
export const ADAPTERS: readonly ProtocolAdapter[] = [igniteAdapter];

export function adapterFor(protocol: Protocol): ProtocolAdapter | null {
  return ADAPTERS.find((a) => a.protocol === protocol) ?? null;
}

export type { ProtocolAdapter, SourceReader, FoundFile, ParsedMessage, Placement, DeadLetterInfo, LogFile, LogSlice } from "./types";
export { MAX_FILE_BYTES } from "./types";
