// The state files the queue monitor rewrites every poll (`state/task_health.json`, the heartbeat)
// and the progress line it appends every 30 s, in upstream's shapes.
import fs from "node:fs";
import path from "node:path";
import { getHeader, isoWithOffset } from "../build";
import { listDirs, listMimeFiles, readIfExists, writeFileAtomic } from "@/lib/demo/fsops";

export interface QueueStats {
  name: string;
  pending: number;
  processing: number;
  retrying: number;
  delivered: number;
}

const SUB_LEADERS = ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator"];
const DISPLAY_NAMES = [
  "伊羽ユイ (Leader)", "義賀リオ (Strategist)", "祢音ナナ (Architect)",
  "衣結ノア (Evaluator)", "通瀬アイナ (Coordinator)", "恵那ツムギ (Innovator)",
];

/** The agent's tmux pane in IGNITE's fixed layout (ignitian_N → N + 5), or null. */
export function paneIndex(agent: string): number | null {
  const fixed = SUB_LEADERS.indexOf(agent);
  if (fixed >= 0) return fixed;
  const match = /^ignitian[-_](\d+)$/.exec(agent);
  return match ? Number(match[1]) + 5 : null;
}

function paneName(agent: string, pane: number): string {
  return DISPLAY_NAMES[pane] ?? `IGNITIAN-${agent.replace(/^ignitian[-_]/, "")}`;
}

export interface StateSnapshot {
  now: Date;
  session: string;
  workspaceDir: string;
  resumeToken: string;
  agents: string[];
  staleAgents: ReadonlySet<string>;
  queues: QueueStats[];
}

export function writeMonitorState(igniteDir: string, s: StateSnapshot): void {
  const stateDir = path.join(igniteDir, "state");
  fs.mkdirSync(stateDir, { recursive: true });
  const at = isoWithOffset(s.now);
  const agents = s.agents
    .map((agent) => ({ agent, pane: paneIndex(agent) }))
    .filter((a): a is { agent: string; pane: number } => a.pane !== null)
    .sort((a, b) => a.pane - b.pane)
    .map(({ agent, pane }) => ({
      pane, name: paneName(agent, pane), status: s.staleAgents.has(agent) ? "stale" : "healthy",
    }));
  const health = { generated_at: at, session: s.session, workspace_dir: s.workspaceDir, agents, queues: s.queues };
  writeFileAtomic(path.join(stateDir, "task_health.json"), pythonJson(health) + "\n", s.now);
  const heartbeat = { timestamp: at, resume_token: s.resumeToken, session: s.session };
  writeFileAtomic(path.join(stateDir, "queue_monitor_heartbeat.json"), JSON.stringify(heartbeat) + "\n", s.now);
}

/** Python's `json.dumps(…, ensure_ascii=False)` layout: ", " and ": " separators. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`);
    return `{${fields.join(", ")}}`;
  }
  return JSON.stringify(value);
}

export function appendProgress(igniteDir: string, now: Date, resumeToken: string, queues: QueueStats[]): void {
  const sum = (key: keyof Omit<QueueStats, "name">) => queues.reduce((n, q) => n + q[key], 0);
  const line =
    `${isoWithOffset(now)} resume=${resumeToken} pending=${sum("pending")} processing=${sum("processing")}` +
    ` retrying=${sum("retrying")} delivered=${sum("delivered")}\n`;
  const file = path.join(igniteDir, "state", "queue_monitor_progress.log");
  fs.appendFileSync(file, line, { mode: 0o600 });
}

/** Per-queue counts as `_scan_queue_stats` computes them (the Status header of processed files). */
export function scanQueueStats(queueDir: string): QueueStats[] {
  return listDirs(queueDir)
    .filter((name) => name !== "dead_letter")
    .map((name) => {
      const q: QueueStats = { name, pending: listMimeFiles(path.join(queueDir, name)).length, processing: 0, retrying: 0, delivered: 0 };
      const processed = path.join(queueDir, name, "processed");
      for (const file of listMimeFiles(processed)) {
        const text = readIfExists(path.join(processed, file));
        if (text === null) continue;
        const status = getHeader(text, "X-IGNITE-Status") ?? "";
        if (status === "processing" || status === "") q.processing += 1;
        else if (status === "retrying") q.retrying += 1;
        else if (status === "delivered" || status === "completed") q.delivered += 1;
      }
      return q;
    });
}
