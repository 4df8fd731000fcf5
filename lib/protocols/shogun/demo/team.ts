// A multi-agent-shogun team: the shogun writes a command for karo and tells karo's inbox; karo
// reads it, splits it into subtasks for the ashigaru (task files plus a task_assigned in each
// one's inbox); each ashigaru reads its task, writes a report and tells karo; karo marks each read
// and, when all are in, the command done on the dashboard. Every inbox write goes through
// shogun's own writer: under both inbox locks (mkdir `.lock.d`, then flock), temp file + rename,
// with the overflow rule (past 50 messages, unread ones plus the newest 30 read stay). One command
// in four, a subtask fails and is redone by another ashigaru.
import fs from "node:fs";
import path from "node:path";
import { planMark, planSend, run } from "../writer";
import { writeFileAtomic } from "@/lib/demo/fsops";
import { TimedTeam, type TeamOptions } from "@/lib/demo/timed-team";
import { ShogunDocuments, type Task } from "./documents";

export const SHOGUN_AGENTS = ["shogun", "karo", "ashigaru1", "ashigaru2", "ashigaru3", "gunshi"] as const;
const ASHIGARU = ["ashigaru1", "ashigaru2", "ashigaru3"] as const;
const KANJI = ["一", "二", "三"];

/** At speed 1 (ms). */
export const SHOGUN_TIMING = {
  readMs: [800, 2_500] as [number, number],
  workMs: [4_000, 9_000] as [number, number],
};

const ORDERS = [
  { purpose: "README の Quick Start を素の環境で検証する", parts: ["Quick Start を実行して記録", "誤りを修正"], target: "README.md" },
  { purpose: "/guides の薄いページを統合する", parts: ["300語未満のページを洗い出す", "統合とリダイレクトを追加"], target: "config/redirects.yaml" },
  { purpose: "トップページの画像を最適化する", parts: ["画像を WebP に変換", "遅延読み込みを設定"], target: "public/index.html" },
  { purpose: "CI のキャッシュを見直す", parts: ["キャッシュキーを調べる", "ワークフローを修正"], target: ".github/workflows/ci.yml" },
] as const;

type Assigned = Omit<Task, "timestamp" | "blocked_by">;

export class ShogunTeam extends TimedTeam {
  protected readonly pacing = { pauseMs: 3_000, maxLoopMs: 90_000, firstMs: 1_000 };
  private docs!: ShogunDocuments;
  /** Subtasks still out, per command. */
  private readonly open = new Map<string, Set<string>>();

  constructor(options: TeamOptions) {
    super(options);
  }

  protected init(): void {
    this.docs = new ShogunDocuments(this.root, this.clock);
    // `shutsujin_departure.sh` lays out an empty inbox for every agent.
    for (const agent of SHOGUN_AGENTS) {
      const inbox = path.join(this.root, "queue", "inbox", `${agent}.yaml`);
      if (!fs.existsSync(inbox)) writeFileAtomic(inbox, "messages: []\n", this.clock());
    }
    this.docs.writeDashboard();
  }

  protected async playLoop(n: number): Promise<void> {
    const order = ORDERS[n % ORDERS.length] ?? ORDERS[0];
    const cmd = `cmd_${String(100 + n).padStart(3, "0")}`;
    this.docs.addCommand({
      id: cmd, purpose: order.purpose, acceptance_criteria: order.parts.map((p) => `${p}が終わっている`),
      command: `${order.purpose}。\n`, project: "demo-site", priority: n % 3 === 0 ? "high" : "medium",
    });
    this.docs.writeDashboard();
    const note = await this.send("shogun", "karo", "cmd_new", `${cmd}を書いた。実行せよ。`);
    this.schedule(this.delay(SHOGUN_TIMING.readMs), async () => {
      await this.markRead("karo", note);
      this.docs.setCommandStatus(cmd, "in_progress");
      this.docs.writeDashboard();
      this.open.set(cmd, new Set());
      for (const [i, part] of order.parts.entries()) {
        const worker = ASHIGARU[(n + i) % ASHIGARU.length] ?? "ashigaru1";
        const task = { task_id: `subtask_${cmd.slice(4)}${"abc"[i] ?? "x"}`, parent_cmd: cmd, description: `${part}。\n`, target_path: order.target, status: "assigned" as const };
        // One command in four: its first subtask fails.
        await this.assign(worker, task, !(n % 4 === 2 && i === 0));
      }
    });
  }

  private async assign(worker: string, task: Assigned, ok: boolean): Promise<void> {
    this.open.get(task.parent_cmd)?.add(task.task_id);
    this.docs.writeTask(worker, task);
    const number = KANJI[Number(worker.slice(-1)) - 1] ?? worker.slice(-1);
    const id = await this.send("karo", worker, "task_assigned", `足軽${number}号、${task.parent_cmd} の ${task.task_id} を与える。queue/tasks/${worker}.yaml を読め。`);
    let at = this.delay(SHOGUN_TIMING.readMs);
    this.schedule(at, () => this.markRead(worker, id));
    at += this.delay(SHOGUN_TIMING.workMs);
    this.schedule(at, async () => {
      this.docs.writeReport(worker, ok, ok ? `${task.description.trim()}を完了` : "途中で失敗", ok ? "" : "テストが通らない。やり直しを推奨。");
      const report = await this.send(worker, "karo", "report_received", `足軽${number}号、${task.parent_cmd} の ${task.task_id} ${ok ? "完了" : "失敗"}。報告YAML確認されたし。`);
      this.schedule(this.delay(SHOGUN_TIMING.readMs), () => this.review(worker, task, ok, report));
    });
  }

  /** Karo reads a report: a failure is redone by the next ashigaru; the last one in closes the command. */
  private async review(worker: string, task: Assigned, ok: boolean, report: string): Promise<void> {
    await this.markRead("karo", report);
    const out = this.open.get(task.parent_cmd);
    out?.delete(task.task_id);
    if (!ok) {
      const next = ASHIGARU[(ASHIGARU.indexOf(worker as (typeof ASHIGARU)[number]) + 1) % ASHIGARU.length] ?? "ashigaru1";
      await this.assign(next, { ...task, task_id: `${task.task_id}2`, redo_of: task.task_id, description: `【やり直し】${task.description}` }, true);
      return;
    }
    if (out && out.size === 0) {
      this.open.delete(task.parent_cmd);
      this.docs.setCommandStatus(task.parent_cmd, "done");
      this.docs.writeDashboard(task.parent_cmd);
    }
  }

  private async send(from: string, to: string, type: string, content: string): Promise<string> {
    const result = await run(this.root, await planSend(this.root, { from, to, type, content }, this.clock()));
    return result.ids[0] ?? "";
  }

  private async markRead(agent: string, id: string): Promise<void> {
    await run(this.root, await planMark(this.root, { agent, ids: [id], read: true }));
  }
}
