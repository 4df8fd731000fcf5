// A fresh IGNITE workspace for the demo: the runtime folder layout `ignite start` creates, a
// runtime.yaml, and the history of one finished goal (played by the simulator itself on a fake
// clock in the recent past) so the console has something to show from the first second.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeFileAtomic } from "@/lib/demo/fsops";
import { randInt, type Random } from "@/lib/demo/random";
import { runtimeYaml } from "./runtime";
import { DEMO_IGNITIANS, Simulator } from "./simulator";

export const DEMO_AGENTS = ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator", ...DEMO_IGNITIANS];

export interface DemoWorkspace {
  /** The workspace folder (give it to Mailroom as MAILROOM_ROOT). */
  workspace: string;
  /** `<workspace>/.ignite` */
  igniteDir: string;
  session: string;
}

export interface CreateOptions {
  /** Where to create the `mailroom-demo-*` folder (default: the OS temp folder). */
  parentDir?: string;
  /** Create the folder under this name in `parentDir` instead of a fresh `mailroom-demo-*` one. */
  name?: string;
  now?: Date;
  random?: Random;
  /** Play one finished goal into processed/ (default true). */
  seed?: boolean;
}

export function createDemoWorkspace(options: CreateOptions = {}): DemoWorkspace {
  const random = options.random ?? Math.random;
  const now = options.now ?? new Date();
  const parent = options.parentDir ?? os.tmpdir();
  const workspace = options.name ? path.join(parent, options.name) : fs.mkdtempSync(path.join(parent, "mailroom-demo-"));
  if (options.name) fs.mkdirSync(workspace);
  const igniteDir = path.join(workspace, ".ignite");
  for (const agent of DEMO_AGENTS) fs.mkdirSync(path.join(igniteDir, "queue", agent, "processed"), { recursive: true });
  for (const dir of ["queue/dead_letter", "logs", "state"]) fs.mkdirSync(path.join(igniteDir, dir), { recursive: true });

  const session = `ignite-${randInt(random, 0, 0xffff).toString(16).padStart(4, "0")}`;
  // The seeded goal takes about 8 minutes; it ends shortly before the live session starts.
  const seedStart = new Date(now.getTime() - 12 * 60_000);
  writeFileAtomic(path.join(igniteDir, "runtime.yaml"), runtimeYaml(session, workspace, seedStart, DEMO_IGNITIANS.length), seedStart);
  if (options.seed !== false) playHistory(workspace, seedStart, new Date(now.getTime() - 30_000), random);
  return { workspace, igniteDir, session };
}

/**
 * One goal, slowed down to a realistic pace (speed 0.1) and replayed on a fake clock from
 * `from` to `until`: its files stay in processed/ (delivered), its log lines stay in the log.
 */
function playHistory(workspace: string, from: Date, until: Date, random: Random): void {
  let clock = from.getTime();
  const sim = new Simulator({
    workspace, speed: 0.1, random, now: () => new Date(clock),
    deleteProcessed: false, startCycle: -1, maxCycles: 1,
    onError: (error) => {
      throw error;
    },
  });
  for (; clock <= until.getTime(); clock += 2_000) sim.tick();
  sim.stop();
}
