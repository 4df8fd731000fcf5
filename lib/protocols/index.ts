import "server-only";
import type { Protocol } from "@/lib/model";
import { igniteAdapter } from "./ignite";
import { igniteYamlReadSide } from "./ignite-yaml";
import { kicklangReadSide } from "./kicklang";
import type { ProtocolReadSide } from "./layout";
import { shogunReadSide } from "./shogun";
import type { ProtocolAdapter } from "./types";
import { workflowReadSide } from "./workflow";

/** Every protocol Mailroom reads one message per file; each root is offered to each adapter. */
export const ADAPTERS: readonly ProtocolAdapter[] = [igniteAdapter];

/** Every protocol whose files hold many entries, read through the entry contract (lib/protocols/entries.ts). */
export const READ_SIDES: readonly ProtocolReadSide[] = [igniteYamlReadSide, shogunReadSide, workflowReadSide, kicklangReadSide];

export function adapterFor(protocol: Protocol): ProtocolAdapter | null {
  return ADAPTERS.find((a) => a.protocol === protocol) ?? null;
}

export type { ProtocolAdapter, SourceReader, FoundFile, ParsedMessage, Placement, DeadLetterInfo, LogFile, LogSlice } from "./types";
export { MAX_FILE_BYTES } from "./types";
