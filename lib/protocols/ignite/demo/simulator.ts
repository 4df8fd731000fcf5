// Plays a live IGNITE team against a workspace: a queue monitor plus agents that answer what is
// delivered to them, writing real files exactly as the IGNITE tools do. Everything runs off one
// clock and one random source, so tests drive it with tick() and a fake clock.
import fs from "node:fs";
import path from "node:path";
import { getHeader, retryCountOf } from "../build";
import { Team, type Outgoing } from "./agents";
import { readIfExists, removeIfExists } from "@/lib/demo/fsops";
import { goalForCycle, threadIdFor } from "./goals";
import { QueueMonitor } from "./monitor";
import { writeOutgoing } from "./outbox";
import { randInt, type Random } from "@/lib/demo/random";
import { readSessionName } from "./runtime";
import { Scheduler, type EventKind } from "@/lib/demo/scheduler";

/** Intervals at speed 1 (ms): something visible every 1–3 s; the 300 s timeout becomes 20 s. */
export const DEMO_TIMING = {
  pollMs: 2_000,
  deliverMs: [300, 1_200] as [number, number],
  replyMs: [1_000, 3_000] as [number, number],
  deleteMs: [3_000, 9_000] as [number, number],
  timeoutMs: 20_000,
  firstGoalMs: 1_000,
  goalPauseMs: 4_000,
  /** Start the next goal even if something is still moving after this long. */
  maxCycleMs: 180_000,
};

export const DEMO_IGNITIANS = ["ignitian_1", "ignitian_2", "ignitian_3"];

export interface SimulatorOptions {
  /** The workspace folder (it holds `.ignite/`). */
  workspace: string;
  speed?: number;
  random?: Random;
  now?: () => Date;
  /** One ignitian stays silent each cycle: dead-lettered on even cycles, recovered after a retry on odd ones. */
  failures?: boolean;
  /** Agents delete most processed files once handled (default true). */
  deleteProcessed?: boolean;
  /** The first goal rotation (default 0). */
  startCycle?: number;
  /** Stop starting goals after this many (default: no limit). */
  maxCycles?: number;
  onError?: (error: unknown) => void;
}

export class Simulator {
  private readonly igniteDir: string;
  private readonly speed: number;
  private readonly random: Random;
  private readonly clock: () => Date;
  private readonly scheduler = new Scheduler();
  private readonly monitor: QueueMonitor;
  private readonly team: Team;
  /** Message-ID → retries after which its delivery works (Infinity: never). */
  private readonly silent = new Map<string, number>();
  private readonly threadCycle = new Map<string, number>();
  private pid: number;
  private initialized = false;
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private goalScheduled = false;
  private cycleStartedAt = 0;
  private lastError = "";
  /** Goals started so far. */
  cycles = 0;

  constructor(private readonly o: SimulatorOptions) {
    this.igniteDir = path.join(o.workspace, ".ignite");
    this.speed = o.speed && o.speed > 0 ? o.speed : 1;
    this.random = o.random ?? Math.random;
    this.clock = o.now ?? (() => new Date());
    this.pid = randInt(this.random, 20_000, 40_000);
    this.team = new Team(this.random, DEMO_IGNITIANS);
    this.monitor = new QueueMonitor({
      igniteDir: this.igniteDir, workspaceDir: o.workspace, session: readSessionName(this.igniteDir),
      clock: this.clock, random: this.random, speed: this.speed, pollMs: DEMO_TIMING.pollMs,
      timeoutMs: DEMO_TIMING.timeoutMs, deliverMs: DEMO_TIMING.deliverMs,
      schedule: (delay, kind, run) => this.schedule(delay, kind, run),
      nextPid: () => this.nextPid(),
      canDeliver: (_agent, text) => this.canDeliver(text),
      onDelivered: (agent, file, text) => this.onDelivered(agent, file, text),
    });
  }

  /** Run on a real timer until stop(). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.tick();
    const every = Math.max(20, Math.min(250, 250 / this.speed));
    this.timer = setInterval(() => this.tick(), every);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.scheduler.clear();
    if (this.initialized) this.monitor.stop();
  }

  /** One deterministic step: run everything due at the clock's current time. */
  tick(): void {
    if (this.stopped) return;
    try {
      if (!this.initialized) this.init();
      this.scheduler.runDue(this.clock().getTime(), (error) => this.report(error));
    } catch (error) {
      this.report(error);
    }
  }

  private init(): void {
    this.initialized = true;
    fs.mkdirSync(path.join(this.igniteDir, "queue", "dead_letter"), { recursive: true });
    this.monitor.start();
    this.schedule(0, "chore", () => this.poll());
    this.goalScheduled = true;
    this.schedule(DEMO_TIMING.firstGoalMs, "work", () => this.startGoal());
  }

  private poll(): void {
    // Scheduled first, so one failed pass does not end the monitor.
    this.schedule(DEMO_TIMING.pollMs, "chore", () => this.poll());
    const waiting = this.monitor.poll();
    const now = this.clock().getTime();
    // A cycle is over when nothing moves but silent messages waiting for their timeout.
    const idle = waiting === 0 && !this.scheduler.has("work");
    const overdue = now - this.cycleStartedAt > DEMO_TIMING.maxCycleMs / this.speed;
    if (!this.goalScheduled && (idle || overdue)) {
      this.goalScheduled = true;
      this.schedule(DEMO_TIMING.goalPauseMs, "work", () => this.startGoal());
    }
  }

  private startGoal(): void {
    this.goalScheduled = false;
    if (this.o.maxCycles !== undefined && this.cycles >= this.o.maxCycles) {
      this.goalScheduled = true; // never again
      return;
    }
    const cycle = (this.o.startCycle ?? 0) + this.cycles;
    const { goal, issue } = goalForCycle(cycle);
    const threadId = threadIdFor(goal, issue);
    this.team.register(threadId, goal, issue);
    this.threadCycle.set(threadId, cycle);
    this.cycles += 1;
    this.cycleStartedAt = this.clock().getTime();
    this.send(this.team.userGoal(threadId));
  }

  private onDelivered(agent: string, file: string, text: string): void {
    const replyDelay = this.delay(DEMO_TIMING.replyMs);
    this.schedule(replyDelay, "work", () => {
      for (const out of this.team.react(agent, text)) {
        const id = this.send(out);
        if (out.type === "task_assignment") this.planSilence(out, id);
      }
    });
    // Most handled files are deleted by their agent ("completed"); some stay "delivered".
    if (this.o.deleteProcessed === false || this.random() < 0.2) return;
    const messageId = getHeader(text, "Message-ID");
    this.schedule(replyDelay + this.delay(DEMO_TIMING.deleteMs), "chore", () => {
      const current = readIfExists(file);
      if (current !== null && getHeader(current, "Message-ID") === messageId) removeIfExists(file);
    });
  }

  /** Which ignitian goes quiet in this thread's cycle, and for how long. */
  private planSilence(out: Outgoing, messageId: string): void {
    const cycle = this.threadCycle.get(out.threadId ?? "");
    if (this.o.failures === false || cycle === undefined) return;
    const n = DEMO_IGNITIANS.length;
    const round = Math.floor(cycle / 2);
    const dead = cycle % 2 === 0;
    const agent = DEMO_IGNITIANS[((dead ? round + 1 : round + 2) % n + n) % n];
    if (out.to === agent) this.silent.set(messageId, dead ? Number.POSITIVE_INFINITY : 1);
  }

  private canDeliver(text: string): boolean {
    const limit = this.silent.get(getHeader(text, "Message-ID") ?? "");
    // A message Mailroom requeued from the dead letters gets through: the demo's happy ending.
    if (limit === undefined || getHeader(text, "X-IGNITE-Requeued-At") !== null) return true;
    return retryCountOf(text) >= limit;
  }

  private send(out: Outgoing): string {
    return writeOutgoing(this.igniteDir, out, this.clock(), this.nextPid(), this.random);
  }

  private schedule(delayMs: number, kind: EventKind, run: () => void): void {
    this.scheduler.add(this.clock().getTime() + delayMs / this.speed, kind, run);
  }

  /** A random delay in a speed-1 range (schedule() scales it). */
  private delay([min, max]: [number, number]): number {
    return randInt(this.random, min, max);
  }

  /** Each upstream tool run is a new process: Message-IDs carry climbing pids. */
  private nextPid(): number {
    this.pid += randInt(this.random, 1, 40);
    if (this.pid > 4_000_000) this.pid = 1_000;
    return this.pid;
  }

  private report(error: unknown): void {
    if (this.o.onError) return this.o.onError(error);
    // The same failure every tick (say, the workspace was deleted) is reported once.
    const message = String(error);
    if (message !== this.lastError) console.error("[demo] simulator step failed:", error);
    this.lastError = message;
  }
}
