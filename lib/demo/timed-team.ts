// The clockwork every protocol's demo team shares: one clock, one seeded random source and one
// scheduler whose steps may be async (the protocols' writers are: shogun's takes real locks), run
// one at a time in time order. Tests drive it with tick() on a fake clock; the demo on a timer.
import fs from "node:fs";
import { randInt, type Random } from "./random";
import { Scheduler, type EventKind } from "./scheduler";

export interface TeamOptions {
  /** The workspace root the team writes into. */
  root: string;
  speed?: number;
  random?: Random;
  now?: () => Date;
  /** Stop starting loops after this many (default: no limit). */
  maxLoops?: number;
  /** The first loop's number (default 0): a history played before the live team uses others. */
  firstLoop?: number;
  onError?: (error: unknown) => void;
}

/** What the demo runs: a team on a timer, or stepped by hand. */
export interface DemoTeam {
  start(): void;
  stop(): void;
  tick(): Promise<void>;
  /** Loops (goals, commands, tasks, dispatches) started so far. */
  loops: number;
}

/** How often the conductor looks whether a loop is over, and the pause before the next (speed 1). */
const WATCH_MS = 1_000;

export abstract class TimedTeam implements DemoTeam {
  protected readonly root: string;
  protected readonly speed: number;
  protected readonly random: Random;
  protected readonly clock: () => Date;
  private readonly scheduler = new Scheduler();
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private initialized = false;
  private stopped = false;
  private loopScheduled = false;
  private loopStartedAt = 0;
  private lastError = "";
  loops = 0;

  /** Pause between loops, the longest a loop may take before the next starts anyway, and the first loop's delay (ms at speed 1). */
  protected abstract readonly pacing: { pauseMs: number; maxLoopMs: number; firstMs: number };

  constructor(protected readonly options: TeamOptions) {
    // Without links on the way: the writers hold each folder they write in and check the kernel has it where its path says (held-dir.ts).
    this.root = fs.existsSync(options.root) ? fs.realpathSync(options.root) : options.root;
    this.speed = options.speed && options.speed > 0 ? options.speed : 1;
    this.random = options.random ?? Math.random;
    this.clock = options.now ?? (() => new Date());
  }

  start(): void {
    if (this.timer || this.stopped) return;
    void this.tick();
    const every = Math.max(20, Math.min(250, 250 / this.speed));
    // A step still awaiting a lock is not run twice: the next tick waits for the timer after it.
    this.timer = setInterval(() => {
      if (!this.running) void this.tick();
    }, every);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.scheduler.clear();
  }

  /** One deterministic step: every event due at the clock's time, each awaited in turn. */
  tick(): Promise<void> {
    this.running ??= this.step().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.initialized) {
        this.initialized = true;
        await this.init();
        this.schedule(WATCH_MS, () => this.watch(), "chore");
        this.loopScheduled = true;
        this.schedule(this.pacing.firstMs, () => this.nextLoop());
      }
      const now = this.clock().getTime();
      for (let run = this.scheduler.takeDue(now); run && !this.stopped; run = this.scheduler.takeDue(now)) {
        try {
          await run();
        } catch (error) {
          // One failed step (say, an inbox locked by the console for 5 s) must not stop the show.
          this.report(error);
        }
      }
    } catch (error) {
      this.report(error);
    }
  }

  /** Lay out what the team needs before its first loop (folders, registries, a first heartbeat). */
  protected abstract init(): void | Promise<void>;

  /** Start loop `n`: schedule its steps as "work" events. */
  protected abstract playLoop(n: number): void | Promise<void>;

  /** Whether the current loop is over; a team with files still waiting (a queue) adds to this. */
  protected idle(): boolean {
    return !this.scheduler.has("work");
  }

  private watch(): void {
    this.schedule(WATCH_MS, () => this.watch(), "chore");
    const overdue = this.clock().getTime() - this.loopStartedAt > this.pacing.maxLoopMs / this.speed;
    if (!this.loopScheduled && (this.idle() || overdue)) {
      this.loopScheduled = true;
      this.schedule(this.pacing.pauseMs, () => this.nextLoop());
    }
  }

  private async nextLoop(): Promise<void> {
    this.loopScheduled = false;
    if (this.options.maxLoops !== undefined && this.loops >= this.options.maxLoops) {
      this.loopScheduled = true; // never again
      return;
    }
    const n = (this.options.firstLoop ?? 0) + this.loops;
    this.loops += 1;
    this.loopStartedAt = this.clock().getTime();
    await this.playLoop(n);
  }

  /** Run `run` after `delayMs` at speed 1 (scaled by the speed). */
  protected schedule(delayMs: number, run: () => unknown, kind: EventKind = "work"): void {
    this.scheduler.add(this.clock().getTime() + delayMs / this.speed, kind, run);
  }

  /** A random delay in a speed-1 range (schedule() scales it). */
  protected delay([min, max]: readonly [number, number]): number {
    return randInt(this.random, min, max);
  }

  private report(error: unknown): void {
    if (this.options.onError) return this.options.onError(error);
    // The same failure every tick (say, the workspace was deleted) is reported once.
    const message = String(error);
    if (message !== this.lastError) console.error("[demo] team step failed:", error);
    this.lastError = message;
  }
}

/** Play `team` on a fake clock from `from` to `until` in `stepMs` steps: a history the console shows from its first second. */
export async function playOnClock(makeTeam: (now: () => Date) => DemoTeam, from: Date, until: Date, stepMs = 1_000): Promise<void> {
  let clock = from.getTime();
  const team = makeTeam(() => new Date(clock));
  for (; clock <= until.getTime(); clock += stepMs) await team.tick();
  team.stop();
}
