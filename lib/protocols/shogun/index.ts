// multi-agent-shogun: the read side the core calls. Detection touches the disk (server only);
// placement, reading and statuses are pure. The dashboard is a document to show, not entries.
import type { ProtocolReadSide } from "@/lib/protocols/layout";
import { detect, type ShogunLayout } from "./detect";
import { shogunDocuments } from "./documents";
import { placeShogun } from "./paths";
import { read } from "./read";
import { resolve, STATUSES } from "./statuses";

export const shogunReadSide: ProtocolReadSide<ShogunLayout> = {
  protocol: "shogun",
  detect,
  place: placeShogun,
  // Writers replace an inbox through a temp file and rename: every change is a whole new file.
  appendOnly: () => false,
  // An inbox of no bytes for a while was emptied (`: > karo.yaml`); for a moment, slim_yaml's open('w') in place.
  emptyMeansNone: (place) => place.role === "inbox",
  // 1: tasks come from karo and reports go to karo (before, neither named anyone).
  // 2: plain scalars read as PyYAML reads them (`content: 1e3` is text, not 1000); a `messages:` that is not a list is a problem.
  // 3: a report has no id of its own (its task_id is a link to its task): with the task's, its arrival was the task moving.
  // 4: a list item's bytes start at its `- ` (YAML as they stand; before, its first line lost the dash and indent).
  readerVersion: 4,
  read,
  statuses: STATUSES,
  resolve,
  // No health file and no log: the dashboard is what the agents write for people to read.
  documents: shogunDocuments,
};

export { detect, placeShogun, read, resolve, STATUSES, type ShogunLayout };
export { DASHBOARD, isDashboard } from "./paths";
export type { ReadOptions } from "./read";
export { actionsFor } from "./actions";
export { planAction } from "./action-run";
/** The protocol's writes (plan, then run), for the operations that send and change its messages. */
export * as writer from "./writer";
