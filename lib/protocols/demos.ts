// Every protocol's demo (its `demo` face): how `npm run demo` lays out each protocol's workspace and
// plays its team. The demo's conductor (lib/demo/teams.ts) reaches them here, by protocol, and names none.
import type { ProtocolDemo } from "@/lib/demo/play";
import type { Protocol } from "@/lib/model";
import { IGNITE_DEMO } from "./ignite/demo";
import { IGNITE_YAML_DEMO } from "./ignite-yaml/demo";
import { KICKLANG_DEMO } from "./kicklang/demo";
import { SHOGUN_DEMO } from "./shogun/demo";
import { WORKFLOW_DEMO } from "./workflow/demo";

export type { ProtocolDemo } from "@/lib/demo/play";

/** In the order the demo lays them out (and the console lists their sources). */
export const DEMOS: Readonly<Record<Protocol, ProtocolDemo>> = {
  ignite: IGNITE_DEMO,
  "ignite-yaml": IGNITE_YAML_DEMO,
  shogun: SHOGUN_DEMO,
  workflow: WORKFLOW_DEMO,
  kicklang: KICKLANG_DEMO,
};
