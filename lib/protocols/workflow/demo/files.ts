// The workflow's own state files as the Node tool keeps them: `current.json` naming the running
// workflow, `state/agents.json` (the registry: `registered_at`, `last_heartbeat`, status), and the
// JSONL logs, each record one O_APPEND line.
import fs from "node:fs";
import path from "node:path";
import { appendLineNow } from "@/lib/operations/append";
import { WORKFLOW_DIR } from "@/lib/protocols/workflow";
import { writeFileAtomic } from "@/lib/demo/fsops";

interface AgentRecord {
  perspective: string;
  status: string;
  registered_at: string;
  last_heartbeat: string;
}

export class WorkflowFiles {
  readonly dir: string;
  readonly stateDir: string;
  readonly channelDir: string;
  private readonly agents: Record<string, AgentRecord> = {};
  private readonly createdAt: string;
  private logSeq = 0;

  constructor(
    private readonly root: string,
    readonly workflowId: string,
    readonly topic: string,
    private readonly clock: () => Date,
  ) {
    this.channelDir = `${WORKFLOW_DIR}/${workflowId}/channel`;
    this.dir = path.join(root, ...WORKFLOW_DIR.split("/"), workflowId);
    this.stateDir = path.join(this.dir, "state");
    this.createdAt = clock().toISOString();
    for (const sub of ["channel/agents", "state/heartbeat", "logs"]) fs.mkdirSync(path.join(this.dir, sub), { recursive: true });
    const current = { workflow_id: workflowId, workflow_dir: this.dir, started_at: this.createdAt };
    writeFileAtomic(path.join(root, ...WORKFLOW_DIR.split("/"), "current.json"), `${JSON.stringify(current, null, 2)}\n`, clock());
  }

  register(agents: readonly string[]): void {
    const at = this.clock().toISOString();
    for (const agent of agents) {
      this.agents[agent] = { perspective: agent.replace(/^agent_/, ""), status: "registered", registered_at: at, last_heartbeat: at };
      this.log("events", { event_type: "agent_start", agent_id: agent, data: { perspective: agent.replace(/^agent_/, "") }, status: "started" });
    }
    this.writeRegistry();
  }

  setStatus(agent: string, status: string): void {
    const record = this.agents[agent];
    if (!record) return;
    record.status = status;
    this.writeRegistry();
  }

  noteBeat(agent: string, at: Date): void {
    const record = this.agents[agent];
    if (!record) return;
    record.last_heartbeat = at.toISOString();
    this.writeRegistry();
  }

  /** The agent's last heartbeat (ms), as the registry holds it. */
  lastBeat(agent: string): number | null {
    const at = this.agents[agent]?.last_heartbeat;
    return at ? Date.parse(at) : null;
  }

  /** One record appended to `logs/<name>.jsonl`. */
  log(name: "events" | "errors", record: Record<string, unknown>): void {
    const now = this.clock();
    const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const id = `${name === "events" ? "evt" : "err"}_${stamp}_${String(++this.logSeq).padStart(6, "0")}`;
    const rel = `${WORKFLOW_DIR}/${this.workflowId}/logs/${name}.jsonl`;
    appendLineNow(path.join(this.root, rel), `${JSON.stringify({ id, timestamp: now.toISOString(), workflow_id: this.workflowId, ...record })}\n`, rel);
  }

  private writeRegistry(): void {
    const registry = { workflow_id: this.workflowId, workflow_type: "orchestrate", topic: this.topic, created_at: this.createdAt, status: "running", agents: this.agents };
    writeFileAtomic(path.join(this.stateDir, "agents.json"), `${JSON.stringify(registry, null, 2)}\n`, this.clock());
  }
}
