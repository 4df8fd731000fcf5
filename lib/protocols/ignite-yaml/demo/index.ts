// IGNITE v2's demo: its team and queue monitor, with one goal retried and recovered as history; its
// first live goal dead-letters (odd goals recover after one retry, even ones do not).
import { playedTeam, type ProtocolDemo } from "@/lib/demo/play";
import { IgniteYamlTeam } from "./team";

export const IGNITE_YAML_DEMO: ProtocolDemo = {
  folder: "ignite-v2",
  // The history's handled files stay in processed/ (delivered); the live agents delete most of theirs.
  prepare: (workspace, opts) =>
    playedTeam(workspace, opts, { first: 1, loops: 1 }, (options, phase) => new IgniteYamlTeam({ ...options, ...(phase === "history" ? { deleteProcessed: false } : {}) })),
};
