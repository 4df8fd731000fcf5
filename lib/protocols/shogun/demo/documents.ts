// The YAML and Markdown files shogun's agents write whole with their editor's write tool (a temp
// file and a rename here): the shogun's commands to karo, each worker's current task, each
// worker's last report, and karo's dashboard.
import fs from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { localTimestamp } from "../inbox-format";
import { writeFileAtomic } from "@/lib/demo/fsops";

export interface Command {
  id: string;
  timestamp: string;
  purpose: string;
  acceptance_criteria: string[];
  command: string;
  project: string;
  priority: string;
  status: "pending" | "in_progress" | "done";
}

export interface Task {
  task_id: string;
  parent_cmd: string;
  redo_of?: string;
  description: string;
  target_path: string;
  blocked_by: string[];
  status: "assigned" | "done" | "failed";
  timestamp: string;
}

const yaml = (value: unknown) => stringify(value, { lineWidth: 0 });

/** Done commands `queue/shogun_to_karo.yaml` keeps (see writeCommands). */
export const KEEP_DONE_COMMANDS = 100;

export class ShogunDocuments {
  private readonly queue: string;
  private readonly commands: Command[] = [];
  private readonly results: string[] = [];
  private readonly tasks = new Map<string, Task>();

  constructor(
    private readonly root: string,
    private readonly clock: () => Date,
  ) {
    this.queue = path.join(root, "queue");
    for (const dir of ["inbox", "tasks", "reports"]) fs.mkdirSync(path.join(this.queue, dir), { recursive: true });
    // A team that takes over a workspace (the demo's history, then the live team) keeps its commands.
    const existing = fs.existsSync(this.commandsFile) ? (parse(fs.readFileSync(this.commandsFile, "utf8")) as { commands?: Command[] } | null) : null;
    if (Array.isArray(existing?.commands)) this.commands.push(...existing.commands);
  }

  private get commandsFile(): string {
    return path.join(this.queue, "shogun_to_karo.yaml");
  }

  private write(file: string, text: string): void {
    writeFileAtomic(file, text, this.clock());
  }

  /** The shogun adds a command to `queue/shogun_to_karo.yaml`. */
  addCommand(command: Omit<Command, "timestamp" | "status">): void {
    this.commands.push({ ...command, timestamp: localTimestamp(this.clock()), status: "pending" });
    this.writeCommands();
  }

  /** Karo changes a command's status in the same file. */
  setCommandStatus(id: string, status: Command["status"]): void {
    const command = this.commands.find((c) => c.id === id);
    if (!command) return;
    command.status = status;
    this.writeCommands();
  }

  private writeCommands(): void {
    // Every open command and the newest done ones: a demo left running for days kept them all, and
    // past ~30,000 the file outgrew what the console reads whole (8 MiB).
    const done = this.commands.filter((c) => c.status === "done");
    const dropped = new Set(done.slice(0, Math.max(0, done.length - KEEP_DONE_COMMANDS)));
    if (dropped.size > 0) this.commands.splice(0, this.commands.length, ...this.commands.filter((c) => !dropped.has(c)));
    this.write(this.commandsFile, yaml({ commands: this.commands }));
  }

  /** Karo writes a worker's task file (one task at a time: the next replaces it). */
  writeTask(worker: string, assigned: Omit<Task, "timestamp" | "blocked_by">): void {
    const task: Task = { ...assigned, blocked_by: [], timestamp: localTimestamp(this.clock()) };
    this.tasks.set(worker, task);
    this.write(path.join(this.queue, "tasks", `${worker}.yaml`), yaml({ task }));
  }

  /** The worker writes its report on its current task and marks the task done or failed. */
  writeReport(worker: string, ok: boolean, summary: string, notes: string): void {
    const task = this.tasks.get(worker);
    if (!task) return;
    const now = localTimestamp(this.clock());
    const report = {
      worker_id: worker, task_id: task.task_id, parent_cmd: task.parent_cmd, timestamp: now, status: ok ? "done" : "failed",
      result: { summary, files_modified: ok ? [task.target_path] : [], notes },
      skill_candidate: { found: false },
    };
    this.write(path.join(this.queue, "reports", `${worker}_report.yaml`), yaml(report));
    this.write(path.join(this.queue, "tasks", `${worker}.yaml`), yaml({ task: { ...task, status: ok ? "done" : "failed" } }));
  }

  /** Karo's dashboard.md: the commands in progress and the latest results. */
  writeDashboard(doneId?: string): void {
    const now = this.clock();
    const done = this.commands.find((c) => c.id === doneId);
    if (done) this.results.unshift(`| ${localTimestamp(now).slice(11, 16)} | ${done.project} | ${done.id} ${done.purpose} | ✅ 完了 |`);
    this.results.splice(8);
    const open = this.commands.filter((c) => c.status !== "done").map((c) => `| ${c.id} | ${c.purpose} | ${c.status === "pending" ? "待機" : "進行中"} |`);
    const text = [
      "# 📊 戦況報告", `最終更新: ${localTimestamp(now).replace("T", " ").slice(0, 16)}`, "",
      "## 🔄 進行中 - 只今、戦闘中でござる", "| cmd | 内容 | 状態 |", "|-----|------|------|", ...open, "",
      "## ✅ 本日の戦果", "| 時刻 | 戦場 | 任務 | 結果 |", "|------|------|------|------|", ...this.results, "",
    ].join("\n");
    this.write(path.join(this.root, "dashboard.md"), text);
  }
}
