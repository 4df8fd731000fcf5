// What a protocol's demo offers the demo's conductor (teams.ts): its workspace laid out with a few
// minutes of history, and its live team continuing it. Each protocol's own is in
// lib/protocols/<name>/demo/, gathered by lib/protocols/demos.ts; the conductor names none.
import fs from "node:fs";
import type { Random } from "./random";
import { playOnClock, type DemoTeam, type TeamOptions } from "./timed-team";

export interface PrepareFor {
  now: Date;
  random: Random;
  /** Play a history before the live team. */
  history: boolean;
}

export interface ProtocolDemo {
  /** The workspace folder's name under the demo's parent folder: the console names its source after it. */
  folder: string;
  /**
   * A team whose agents time out silent messages: how long that takes at speed 1, so the console
   * can show such a message stuck before the team retries it (the server's MAILROOM_STUCK_AFTER).
   */
  timeoutMs?: number;
  /** Lay out `workspace` (not there yet) and its history up to shortly before `now`; returns the live team, continuing it. */
  prepare(workspace: string, opts: PrepareFor): Promise<(speed: number) => DemoTeam>;
}

/** How many loops a history plays (ones without a failure) and the number of its first. */
export interface HistoryLoops {
  first: number;
  loops: number;
}

/**
 * A TimedTeam's workspace: made, its history played on a fake clock from 4 minutes to 15 s before
 * `now`, and the live team numbering its loops after the history's. `team` makes either.
 */
export async function playedTeam(
  workspace: string,
  { now, random, history }: PrepareFor,
  loops: HistoryLoops,
  team: (options: TeamOptions, phase: "history" | "live") => DemoTeam,
): Promise<(speed: number) => DemoTeam> {
  fs.mkdirSync(workspace);
  const onError = (error: unknown) => {
    throw error;
  };
  if (history) {
    const from = new Date(now.getTime() - 4 * 60_000);
    const options = (clock: () => Date): TeamOptions => ({ root: workspace, random, now: clock, firstLoop: loops.first, maxLoops: loops.loops, onError });
    await playOnClock((clock) => team(options(clock), "history"), from, new Date(now.getTime() - 15_000));
  }
  const next = history ? loops.first + loops.loops : 0;
  return (speed) => team({ root: workspace, random, speed, firstLoop: next }, "live");
}
