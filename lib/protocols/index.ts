import "server-only";
import type { Protocol } from "@/lib/model";
import type { ActionDescriptor, ActionId, ActionInput, ActionSubject, PlannedAction } from "./actions";
import { actionsFor as igniteActions, igniteAdapter } from "./ignite";
import { actionsFor as igniteYamlActions, igniteYamlReadSide, planAction as igniteYamlPlan } from "./ignite-yaml";
import { kicklangReadSide } from "./kicklang";
import type { ProtocolReadSide } from "./layout";
import { actionsFor as shogunActions, planAction as shogunPlan, shogunReadSide } from "./shogun";
import type { DeadLetterFacts, ProtocolAdapter } from "./types";
import { actionsFor as workflowActions, planAction as workflowPlan, workflowReadSide } from "./workflow";

/** Every protocol Mailroom reads one message per file; each root is offered to each adapter. */
export const ADAPTERS: readonly ProtocolAdapter[] = [igniteAdapter];

/** Every protocol whose files hold many entries, read through the entry contract (lib/protocols/entries.ts). */
export const READ_SIDES: readonly ProtocolReadSide[] = [igniteYamlReadSide, shogunReadSide, workflowReadSide, kicklangReadSide];

export function adapterFor(protocol: Protocol): ProtocolAdapter | null {
  return ADAPTERS.find((a) => a.protocol === protocol) ?? null;
}

/** The read side of a protocol whose files hold many entries, or null (IGNITE v3, or a name no protocol has). */
export function readSideFor(protocol: string | undefined): ProtocolReadSide | null {
  return READ_SIDES.find((s) => s.protocol === protocol) ?? null;
}

/** A protocol's actions on existing messages: which a message offers, and how each is planned and written. */
export interface ProtocolActions {
  actionsFor(m: ActionSubject): ActionDescriptor[];
  /** Absent for IGNITE v3, whose actions its adapter's `fileActions` plans and lib/operations carries out by key. */
  planAction?(root: string, id: ActionId, m: ActionSubject, input: ActionInput): Promise<PlannedAction>;
}

export const PROTOCOL_ACTIONS: Readonly<Record<Protocol, ProtocolActions>> = {
  ignite: { actionsFor: igniteActions },
  "ignite-yaml": { actionsFor: igniteYamlActions, planAction: igniteYamlPlan },
  shogun: { actionsFor: shogunActions, planAction: shogunPlan },
  workflow: { actionsFor: workflowActions, planAction: workflowPlan },
  // Replying is compose's; KickLang has no other action on a sent envelope.
  kicklang: { actionsFor: () => [] },
};

/** A dead letter's facts from its body, as its protocol reads them (null: the protocol's letters carry none beyond their row). */
export function deadLetterFactsOf(protocol: Protocol, body: string): DeadLetterFacts | null {
  const read = adapterFor(protocol)?.deadLetterFacts ?? readSideFor(protocol)?.deadLetterFacts;
  return read ? read(body) : null;
}

/** Every protocol's words (its catalog), for the core and, handed down as data, the browser. */
export { CATALOGS, VOCABULARY, catalogOf, inStatusOrder, statusDefinition } from "./catalog";
/** The wave-2 protocols' sends, planned by their writers. */
export { planSend, sendListsOf, type PlannedSend } from "./compose-run";

export type { HopDefinition, HopPoint, ProtocolCatalog, StatusDefinition, StatusTone, Vocabulary } from "./types";
export type { ComposeVocabulary, ReplyPlan, OwnCompose, FileActions } from "./types";
export type {
  DeadLetterFacts, ProtocolAdapter, SourceReader, FoundFile, ParsedMessage, Placement, DeadLetterInfo, DeadLetterOriginal, LogFile, LogSlice,
  LifecycleStep, ObservedPlace,
} from "./types";
export { MAX_FILE_BYTES } from "./types";
