// The demo's teams, one per protocol, each in a workspace of its own under one parent folder: the
// workspace is laid out and given a short history (played on a fake clock in the recent past, so
// the console has finished threads to show from its first second), and the live team continues
// from there on the real clock. Each protocol's own demo says how (lib/protocols/<name>/demo/).
import path from "node:path";
import { PROTOCOLS, type Protocol } from "@/lib/model";
import { DEMOS } from "@/lib/protocols/demos";
import type { Random } from "./random";
import type { DemoTeam } from "./timed-team";

export const DEMO_PROTOCOLS: readonly Protocol[] = PROTOCOLS;
export type DemoProtocol = Protocol;

export function isDemoProtocol(name: string): name is DemoProtocol {
  return (DEMO_PROTOCOLS as readonly string[]).includes(name);
}

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

/** Lay out `protocol`'s workspace under `parentDir` (with its history) and say how to start its live team. */
export async function prepareDemoTeam(protocol: DemoProtocol, parentDir: string, options: PrepareOptions = {}): Promise<PreparedTeam> {
  const demo = DEMOS[protocol];
  const workspace = path.join(parentDir, demo.folder);
  const live = await demo.prepare(workspace, { now: options.now ?? new Date(), random: options.random ?? Math.random, history: options.history !== false });
  return { protocol, workspace, live };
}

/**
 * The server's MAILROOM_STUCK_AFTER for the demo, in seconds: before the teams' own timeouts (IGNITE's
 * is 20 s, not 300 s), so a silent message shows stuck before it is retried.
 */
export function demoStuckAfterSeconds(speed: number): number | null {
  const timeouts = Object.values(DEMOS).flatMap((d) => (d.timeoutMs === undefined ? [] : [d.timeoutMs]));
  return timeouts.length === 0 ? null : Math.max(1, Math.round((Math.min(...timeouts) * 0.6) / 1000 / speed));
}
