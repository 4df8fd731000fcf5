// A multi-agent-workflow team: the orchestrator assigns tasks on each agent's channel, the agent
// acks them ({msg_id, status, at}: received, then processed), reports task_complete, and every
// third loop a checkpoint_request goes to everyone. Messages go through the workflow's own writer
// (one compact JSON line, one O_APPEND write); acks and log records are appended the same way.
// Each agent rewrites its heartbeat file every 10 s. One loop in ten, agent_cognitive goes silent
// for a minute: its task stays unacked, its heartbeat goes stale, the orchestrator marks it
// unresponsive in agents.json, logs the error and hands the task to another agent; back, the agent
// catches up on what it missed (acks it, and does a task still its own).
import path from "node:path";
import { appendLineNow } from "@/lib/operations/append";
import { UNRESPONSIVE_AFTER_MS } from "@/lib/protocols/workflow";
import { planSend, run } from "../writer";
import { writeFileAtomic } from "@/lib/demo/fsops";
import { randInt } from "@/lib/demo/random";
import { TimedTeam, type TeamOptions } from "@/lib/demo/timed-team";
import { WorkflowFiles } from "./files";

export const WORKFLOW_AGENTS = ["agent_architecture", "agent_cognitive", "agent_security"] as const;
export const SILENT_AGENT = "agent_cognitive";
const TOPICS = ["user-auth-system", "billing-retries", "search-ranking", "audit-log-export"];

/** At speed 1 (ms). */
export const WORKFLOW_TIMING = {
  heartbeatMs: 10_000,
  ackMs: [400, 2_000] as [number, number],
  workMs: [4_000, 9_000] as [number, number],
  checkMs: 5_000,
  silenceMs: 60_000,
};

interface Assigned {
  id: string;
  taskId: string;
  agent: string;
}

export class WorkflowTeam extends TimedTeam {
  protected readonly pacing = { pauseMs: 2_000, maxLoopMs: 60_000, firstMs: 1_000 };
  readonly workflowId: string;
  private files!: WorkflowFiles;
  private readonly silent = new Set<string>();
  private readonly unresponsive = new Set<string>();
  /** task_assigns no ack has answered yet. */
  private readonly waiting: Assigned[] = [];
  /** What a silent agent was sent (a task_assign, or a checkpoint_request: no taskId), to catch up on. */
  private readonly missed: (Omit<Assigned, "taskId"> & { taskId: string | null })[] = [];

  constructor(options: TeamOptions & { workflowId?: string }) {
    super(options);
    const now = this.clock();
    const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
    const hex = randInt(this.random, 0, 0xffffffff).toString(16).padStart(8, "0");
    this.workflowId = options.workflowId ?? `orchestrate_${stamp}_${hex}`;
  }

  protected init(): void {
    this.files = new WorkflowFiles(this.root, this.workflowId, TOPICS[0] ?? "topic", this.clock);
    this.files.register(WORKFLOW_AGENTS);
    this.beat();
    this.schedule(WORKFLOW_TIMING.checkMs, () => this.checkHealth(), "chore");
  }

  protected async playLoop(n: number): Promise<void> {
    if (n % 10 === 3) this.silence(SILENT_AGENT);
    // Tasks go round the agents, past one the orchestrator knows is unresponsive.
    const turn = WORKFLOW_AGENTS[n % WORKFLOW_AGENTS.length] ?? "agent_architecture";
    const agent = this.unresponsive.has(turn) ? (WORKFLOW_AGENTS.find((a) => !this.unresponsive.has(a)) ?? turn) : turn;
    const taskId = `task_${String(n + 1).padStart(3, "0")}`;
    await this.assign(agent, taskId, {});
    if (n % 3 === 2) await this.checkpoint(n);
  }

  private async assign(agent: string, taskId: string, extra: Record<string, string>): Promise<void> {
    const perspective = agent.replace(/^agent_/, "");
    const id = await this.send("orchestrator", agent, "task_assign", { task_id: taskId, perspective, topic: this.files.topic, ...extra });
    this.waiting.push({ id, taskId, agent });
    // No ack comes while it is silent: it catches up once back (see silence).
    if (this.silent.has(agent)) this.missed.push({ id, taskId, agent });
    else this.work(agent, id, taskId);
  }

  /** The agent's answer to a task_assign: received, maybe a progress update, task_complete, processed. */
  private work(agent: string, id: string, taskId: string): void {
    const perspective = agent.replace(/^agent_/, "");
    let at = this.delay(WORKFLOW_TIMING.ackMs);
    this.schedule(at, () => this.ack(agent, id, "received"));
    if (this.random() < 0.5) {
      at += this.delay(WORKFLOW_TIMING.workMs) / 2;
      this.schedule(at, () => this.send(agent, "orchestrator", "progress_update", { task_id: taskId, percent: randInt(this.random, 30, 70) }));
    }
    at += this.delay(WORKFLOW_TIMING.workMs);
    this.schedule(at, async () => {
      await this.send(agent, "orchestrator", "task_complete", { task_id: taskId, output: `.claude/memory/research/${this.files.topic}/perspectives/${perspective}.md` });
      this.ack(agent, id, "processed");
    });
  }

  private async checkpoint(n: number): Promise<void> {
    const checkpoint = ["map_phase_start", "map_phase_done", "reduce_phase_start"][Math.floor(n / 3) % 3] ?? "map_phase_start";
    const id = await this.send("orchestrator", "broadcast", "checkpoint_request", { checkpoint });
    for (const agent of WORKFLOW_AGENTS) {
      if (this.silent.has(agent)) {
        this.missed.push({ id, taskId: null, agent });
        continue;
      }
      const at = this.delay(WORKFLOW_TIMING.ackMs);
      this.schedule(at, () => this.ack(agent, id, "received"));
      this.schedule(at + this.delay(WORKFLOW_TIMING.ackMs), async () => {
        await this.send(agent, "orchestrator", "checkpoint_response", { checkpoint, status: "ok" });
        this.ack(agent, id, "processed");
      });
    }
  }

  private silence(agent: string): void {
    this.silent.add(agent);
    this.schedule(WORKFLOW_TIMING.silenceMs, () => {
      this.silent.delete(agent);
      this.unresponsive.delete(agent);
      this.files.setStatus(agent, "registered");
      this.beatOne(agent);
      this.catchUp(agent);
    }, "chore");
  }

  /**
   * Back from its silence, the agent reads what it missed, as a restarted agent works through its
   * channel: a task still its own is done; one the orchestrator gave to another agent meanwhile, and
   * a checkpoint that went on without it, are acknowledged as read and done with. Unanswered, they
   * stayed stuck for good, and on a big screen the stuck count only grew.
   */
  private catchUp(agent: string): void {
    const mine = this.missed.filter((m) => m.agent === agent);
    this.missed.splice(0, this.missed.length, ...this.missed.filter((m) => m.agent !== agent));
    for (const m of mine) {
      if (m.taskId !== null && this.waiting.some((t) => t.id === m.id)) {
        this.work(agent, m.id, m.taskId);
        continue;
      }
      const at = this.delay(WORKFLOW_TIMING.ackMs);
      this.schedule(at, () => this.ack(agent, m.id, "received"));
      this.schedule(at + this.delay(WORKFLOW_TIMING.ackMs), () => this.ack(agent, m.id, "processed"));
    }
  }

  /** The Node tool's health check: a heartbeat older than 30 s makes the agent unresponsive, and its tasks go to others. */
  private async checkHealth(): Promise<void> {
    this.schedule(WORKFLOW_TIMING.checkMs, () => this.checkHealth(), "chore");
    const now = this.clock().getTime();
    for (const agent of WORKFLOW_AGENTS) {
      const last = this.files.lastBeat(agent);
      if (this.unresponsive.has(agent) || last === null || now - last <= UNRESPONSIVE_AFTER_MS / this.speed) continue;
      this.unresponsive.add(agent);
      this.files.setStatus(agent, "unresponsive");
      this.files.log("errors", { error_type: "agent_unresponsive", agent_id: agent, message: `No heartbeat from ${agent} for over ${UNRESPONSIVE_AFTER_MS / 1000} s` });
      const live = WORKFLOW_AGENTS.filter((a) => !this.silent.has(a) && !this.unresponsive.has(a));
      for (const task of this.waiting.filter((t) => t.agent === agent)) {
        this.waiting.splice(this.waiting.indexOf(task), 1);
        const other = live[randInt(this.random, 0, live.length - 1)];
        if (other) await this.assign(other, task.taskId, { reassigned_from: agent });
      }
    }
  }

  private beat(): void {
    this.schedule(WORKFLOW_TIMING.heartbeatMs, () => this.beat(), "chore");
    for (const agent of WORKFLOW_AGENTS) if (!this.silent.has(agent)) this.beatOne(agent);
  }

  private beatOne(agent: string): void {
    // The Node tool writes the time without a newline.
    const now = this.clock();
    writeFileAtomic(path.join(this.files.stateDir, "heartbeat", `${agent}.ts`), now.toISOString(), now);
    this.files.noteBeat(agent, now);
  }

  private ack(agent: string, msgId: string, status: "received" | "processed"): void {
    const i = this.waiting.findIndex((t) => t.id === msgId);
    if (i >= 0) this.waiting.splice(i, 1);
    const rel = `${this.files.channelDir}/agents/${agent}.ack`;
    appendLineNow(path.join(this.root, rel), `${JSON.stringify({ msg_id: msgId, status, at: this.clock().toISOString() })}\n`, rel);
  }

  private async send(from: string, to: string, type: string, payload: Record<string, unknown>): Promise<string> {
    const now = this.clock();
    const sent = await run(this.root, await planSend(this.root, { workflowId: this.workflowId, from, to, type, payload }, now));
    this.files.log("events", { event_type: "message", data: { message_id: sent.id, from, to, type }, status: "sent" });
    return sent.id;
  }
}
