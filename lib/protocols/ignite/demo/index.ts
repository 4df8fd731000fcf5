// IGNITE v3's demo: a workspace as `ignite start` lays it out, a finished goal as its history, and
// the simulator (the Leader, the sub-leaders, the IGNITIANs and the queue monitor) playing live.
// Also the pieces IGNITE v2's demo shares: the same team and goals, written in its older format.
import path from "node:path";
import type { ProtocolDemo } from "@/lib/demo/play";
import type { DemoTeam } from "@/lib/demo/timed-team";
import { DEMO_TIMING, Simulator } from "./simulator";
import { createDemoWorkspace } from "./workspace";

export { isoWithOffset, retryBackoffSeconds } from "../build";
export { Team, type Outgoing } from "./agents";
export { goalForCycle, threadIdFor } from "./goals";
export { paneIndex } from "./monitor-state";
export { DEMO_IGNITIANS, DEMO_TIMING } from "./simulator";
export { DEMO_AGENTS } from "./workspace";

export const IGNITE_DEMO: ProtocolDemo = {
  folder: "ignite",
  timeoutMs: DEMO_TIMING.timeoutMs,
  async prepare(workspace, { now, random, history }) {
    createDemoWorkspace({ parentDir: path.dirname(workspace), name: path.basename(workspace), now, random, seed: history });
    return (speed) => simulatorTeam(new Simulator({ workspace, speed, random }));
  },
};

/** The simulator as a DemoTeam. */
function simulatorTeam(sim: Simulator): DemoTeam {
  return {
    start: () => sim.start(),
    stop: () => sim.stop(),
    tick: async () => sim.tick(),
    get loops() {
      return sim.cycles;
    },
  };
}
