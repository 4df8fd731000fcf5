// The workflow channels' demo: an orchestrator and its agents with acks and heartbeats, three tasks
// as history.
import { playedTeam, type ProtocolDemo } from "@/lib/demo/play";
import { WorkflowTeam } from "./team";

export const WORKFLOW_DEMO: ProtocolDemo = {
  folder: "workflow",
  prepare(workspace, opts) {
    // The live team's tasks go on under the history's workflow id.
    const workflowId = `orchestrate_${opts.now.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15)}_demo`;
    return playedTeam(workspace, opts, { first: 0, loops: 3 }, (options) => new WorkflowTeam({ ...options, workflowId }));
  },
};
