// IGNITE v2 (YAML, before MIME): the read side the core calls. Detection touches the disk
// (server only); placement, reading and statuses are pure.
import type { ProtocolReadSide } from "@/lib/protocols/layout";
import { detect, type IgniteYamlLayout } from "./detect";
import { placeIgniteYaml } from "./paths";
import { read } from "./read";
import { resolve, STATUSES } from "./statuses";
import { deadLetterFacts } from "./dead-letter-facts";

export const igniteYamlReadSide: ProtocolReadSide<IgniteYamlLayout> = {
  protocol: "ignite-yaml",
  detect,
  place: placeIgniteYaml,
  appendOnly: () => false,
  // 1: a message's preview is its payload (summary.ts), not the type, from and to its file begins with.
  readerVersion: 1,
  read,
  statuses: STATUSES,
  resolve,
  deadLetterFacts,
};

export { detect, placeIgniteYaml, read, resolve, STATUSES, type IgniteYamlLayout };
export { V2_MESSAGE_NAME, DEAD_LETTER, ARCHIVE_PARTS } from "./paths";
export { recoverFields, PROCESSING_TIMEOUT_MS, type ReadOptions } from "./read";
export { actionsFor } from "./actions";
export { planAction } from "./action-run";
/** The protocol's writes (plan, then run), for the operations that send and change its messages. */
export * as writer from "./writer";
