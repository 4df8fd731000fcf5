// The demo's teams, one per protocol, each in a workspace of its own under one parent folder: the
// workspace is laid out and given a short history (played on a fake clock in the recent past, so
// the console has finished threads to show from its first second), and the live team continues
// from there on the real clock.
import fs from "node:fs";
import path from "node:path";
import { IgniteYamlTeam } from "./ignite-yaml/team";
import { KicklangTeam } from "./kicklang/team";
import { type Random } from "./random";
import { ShogunTeam } from "./shogun/team";
import { Simulator } from "./simulator";
import { playOnClock, type DemoTeam, type TeamOptions } from "./timed-team";
import { WorkflowTeam } from "./workflow/team";
import { createDemoWorkspace } from "./workspace";

export const DEMO_PROTOCOLS = ["ignite", "ignite-yaml", "shogun", "workflow", "kicklang"] as const;
export type DemoProtocol = (typeof DEMO_PROTOCOLS)[number];

export function isDemoProtocol(name: string): name is DemoProtocol {
  return (DEMO_PROTOCOLS as readonly string[]).includes(name);
}

/** Each workspace's folder name: the console names its source after it. */
const FOLDERS: Record<DemoProtocol, string> = { ignite: "ignite", "ignite-yaml": "ignite-v2", shogun: "shogun", workflow: "workflow", kicklang: "kicklang" };

export interface PreparedTeam {
  protocol: DemoProtocol;
  /** The workspace folder (one MAILROOM_ROOT entry). */
  workspace: string;
  /** The live team, continuing the history. */
  live(speed: number): DemoTeam;
}

export interface PrepareOptions {
  now?: Date;
  random?: Random;
  /** Play a history before the live team (default true). */
  history?: boolean;
}

/** The history: this many loops (ones without a failure), from 4 minutes ago to 15 s ago, its handled files kept. */
const HISTORY: Record<Exclude<DemoProtocol, "ignite">, { first: number; loops: number }> = {
  // v2's odd goals recover after one retry: its history settles; its first live goal dead-letters.
  "ignite-yaml": { first: 1, loops: 1 },
  shogun: { first: 0, loops: 2 },
  workflow: { first: 0, loops: 3 },
  kicklang: { first: 0, loops: 1 },
};

type Options = TeamOptions & { workflowId?: string; deleteProcessed?: boolean };

function teamFor(protocol: Exclude<DemoProtocol, "ignite">, options: Options): DemoTeam {
  switch (protocol) {
    case "ignite-yaml":
      return new IgniteYamlTeam(options);
    case "shogun":
      return new ShogunTeam(options);
    case "workflow":
      return new WorkflowTeam(options);
    case "kicklang":
      return new KicklangTeam(options);
  }
}

/** Lay out `protocol`'s workspace under `parentDir` (with its history) and say how to start its live team. */
export async function prepareDemoTeam(protocol: DemoProtocol, parentDir: string, options: PrepareOptions = {}): Promise<PreparedTeam> {
  const random = options.random ?? Math.random;
  const now = options.now ?? new Date();
  if (protocol === "ignite") {
    const { workspace } = createDemoWorkspace({ parentDir, name: FOLDERS.ignite, now, random, seed: options.history });
    return { protocol, workspace, live: (speed) => simulatorTeam(new Simulator({ workspace, speed, random })) };
  }
  const workspace = path.join(parentDir, FOLDERS[protocol]);
  fs.mkdirSync(workspace);
  const { first, loops } = HISTORY[protocol];
  // The workflow goes on under the same id: the live team's tasks continue the history's.
  const workflowId = protocol === "workflow" ? `orchestrate_${now.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15)}_demo` : undefined;
  const onError = (error: unknown) => {
    throw error;
  };
  if (options.history !== false) {
    const from = new Date(now.getTime() - 4 * 60_000);
    await playOnClock((clock) => teamFor(protocol, { root: workspace, random, now: clock, firstLoop: first, maxLoops: loops, workflowId, onError, deleteProcessed: false }), from, new Date(now.getTime() - 15_000));
  }
  const next = options.history === false ? 0 : first + loops;
  return { protocol, workspace, live: (speed) => teamFor(protocol, { root: workspace, random, speed, firstLoop: next, workflowId }) };
}

/** The IGNITE v3 simulator as a DemoTeam. */
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
