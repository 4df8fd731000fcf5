// An IGNITE v2 team: the same agents and goals as the IGNITE v3 demo, writing v2's YAML messages
// through IGNITE v2's own writer (`{type}_{16 digits}.yaml`, top-level keys, `payload:`), with
// v2's queue monitor moving, retrying and dead-lettering them. One ignitian stays silent each
// goal: dead-lettered (with the leader's escalation) on even goals, recovered after a retry on odd ones.
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml, stringify } from "yaml";
import { planCompose, run } from "../writer";
import { retryCountOf } from "../lifecycle";
import { readIfExists, removeIfExists } from "@/lib/demo/fsops";
import { TimedTeam, type TeamOptions } from "@/lib/demo/timed-team";
import { DEMO_AGENTS, DEMO_IGNITIANS, DEMO_TIMING, goalForCycle, Team, threadIdFor, type Outgoing } from "@/lib/protocols/ignite/demo";
import { lastValue, V2Monitor } from "./monitor";

/** The fields of a v2 file as the team's reactions read an IGNITE message: type and thread as headers, then the payload. */
function asTeamText(text: string, threadId: string | undefined, messageId: string): string {
  let payload: unknown = {};
  try {
    const data: unknown = parseYaml(text, { uniqueKeys: false });
    if (data && typeof data === "object" && "payload" in data) payload = (data as { payload: unknown }).payload;
  } catch {
    // A file the team cannot read gets no reaction.
  }
  const headers = [`Message-ID: ${messageId}`, `X-IGNITE-Type: ${lastValue(text, "type") ?? ""}`, ...(threadId ? [`X-IGNITE-Thread-ID: ${threadId}`] : [])];
  return `${headers.join("\n")}\n\n${stringify(payload ?? {})}`;
}

export class IgniteYamlTeam extends TimedTeam {
  protected readonly pacing = { pauseMs: DEMO_TIMING.goalPauseMs, maxLoopMs: DEMO_TIMING.maxCycleMs, firstMs: DEMO_TIMING.firstGoalMs };
  private readonly team: Team;
  private readonly monitor: V2Monitor;
  /** File name → the thread it belongs to (v2 files name none). */
  private readonly threadOf = new Map<string, string>();
  /** File name → retries after which its delivery works (Infinity: never). */
  private readonly silent = new Map<string, number>();
  private readonly loopOf = new Map<string, number>();
  private readonly deleteProcessed: boolean;

  /** `deleteProcessed` false: agents leave handled files in processed/ (default: most are deleted). */
  constructor(options: TeamOptions & { deleteProcessed?: boolean }) {
    super(options);
    this.deleteProcessed = options.deleteProcessed !== false;
    this.team = new Team(this.random, DEMO_IGNITIANS);
    this.monitor = new V2Monitor({
      root: this.root, clock: this.clock, random: this.random, speed: this.speed, timeoutMs: DEMO_TIMING.timeoutMs, deliverMs: DEMO_TIMING.deliverMs,
      schedule: (delay, step) => this.schedule(delay, step),
      canDeliver: (name, text) => this.canDeliver(name, text),
      onDelivered: (agent, file, text) => this.onDelivered(agent, file, text),
    });
  }

  protected init(): void {
    for (const agent of DEMO_AGENTS) fs.mkdirSync(path.join(this.root, "queue", agent, "processed"), { recursive: true });
    fs.mkdirSync(path.join(this.root, "queue", "dead_letter"), { recursive: true });
    this.poll();
  }

  /** A goal is over when nothing moves but silent messages waiting for their timeout. */
  protected idle(): boolean {
    // Counted now, not at the last poll: a message sent since then still waits for the next one.
    return super.idle() && this.monitor.waitingNow() === 0;
  }

  private poll(): void {
    this.schedule(DEMO_TIMING.pollMs, () => this.poll(), "chore");
    this.monitor.poll();
  }

  protected async playLoop(n: number): Promise<void> {
    const { goal, issue } = goalForCycle(n);
    const threadId = threadIdFor(goal, issue);
    this.team.register(threadId, goal, issue);
    await this.send(this.team.userGoal(threadId), n);
  }

  private onDelivered(agent: string, file: string, text: string): void {
    const name = path.basename(file);
    const threadId = this.threadOf.get(name);
    const replyDelay = this.delay(DEMO_TIMING.replyMs);
    this.schedule(replyDelay, async () => {
      for (const out of this.team.react(agent, asTeamText(text, threadId, name))) await this.send(out, this.loopOf.get(name));
    });
    // Most handled files are deleted by their agent ("completed"); some stay "delivered".
    if (!this.deleteProcessed || this.random() < 0.2) return;
    this.schedule(replyDelay + this.delay(DEMO_TIMING.deleteMs), () => {
      if (lastValue(readIfExists(file) ?? "", "status") === "delivered") removeIfExists(file);
    }, "chore");
  }

  private async send(out: Outgoing, loop: number | undefined): Promise<void> {
    const plan = await planCompose(this.root, { type: out.type, from: out.from, to: out.to, priority: out.priority, payload: out.body }, this.clock());
    const name = path.posix.basename((await run(this.root, plan)).path);
    if (out.threadId) this.threadOf.set(name, out.threadId);
    if (loop === undefined) return;
    this.loopOf.set(name, loop);
    if (out.type === "task_assignment") this.planSilence(out.to, name, loop);
  }

  /** The same ignitian goes quiet as in the IGNITE v3 demo's goal of that number. */
  private planSilence(to: string, name: string, loop: number): void {
    const n = DEMO_IGNITIANS.length;
    const round = Math.floor(loop / 2);
    const dead = loop % 2 === 0;
    if (to === DEMO_IGNITIANS[(((dead ? round + 1 : round + 2) % n) + n) % n]) this.silent.set(name, dead ? Number.POSITIVE_INFINITY : 1);
  }

  private canDeliver(name: string, text: string): boolean {
    const limit = this.silent.get(name);
    // A message Mailroom requeued from the dead letters gets through.
    if (limit === undefined || /^requeued_at:/m.test(text)) return true;
    return retryCountOf(text) >= limit;
  }
}
