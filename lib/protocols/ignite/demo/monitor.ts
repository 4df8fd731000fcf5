// A queue monitor that behaves like upstream's `queue_monitor.sh` (+ retry_handler.sh,
// dlq_handler.sh), writing the same files, headers and log lines, on a scaled clock.
import { createHash } from "node:crypto";
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import {
  buildDeadLetter, buildEscalation, getHeader, isoWithOffset, markProcessing, markRetrying,
  newMessageId, retryBackoffSeconds, retryCountOf, setHeader,
} from "../build";
import {
  createFileAtomic, listDirs, listMimeFiles, moveNoClobber, mtimeMs, readIfExists, removeIfExists,
  writeFileAtomic,
} from "@/lib/demo/fsops";
import { MonitorLog } from "./monitor-log";
import { appendProgress, paneIndex, scanQueueStats, writeMonitorState } from "./monitor-state";
import { randInt, random64, type Random } from "@/lib/demo/random";
import type { EventKind } from "@/lib/demo/scheduler";

export interface MonitorOptions {
  igniteDir: string;
  workspaceDir: string;
  session: string;
  clock: () => Date;
  random: Random;
  /** Every interval below is divided by this. */
  speed: number;
  pollMs: number;
  timeoutMs: number;
  deliverMs: [number, number];
  maxRetries?: number;
  /** Run `run` after `delayMs` at speed 1 (the scheduler scales it). */
  schedule: (delayMs: number, kind: EventKind, run: () => void) => void;
  nextPid: () => number;
  /** false: the agent's pane is "not found", so the message stays `processing` and times out. */
  canDeliver: (agent: string, text: string) => boolean;
  onDelivered: (agent: string, file: string, text: string) => void;
}

/** Upstream scans these queues (plus `ignitian[_-]N`), never dead_letter or unknown folders. */
const isMonitoredAgent = (name: string) => paneIndex(name) !== null;
const NORMAL_NAME = /^.+_[0-9]{16}\.mime$/;

export class QueueMonitor {
  readonly log: MonitorLog;
  private readonly queueDir: string;
  private readonly maxRetries: number;
  private readonly resumeToken: string;
  private readonly stale = new Set<string>();
  private startedAtMs = 0;
  private lastProgressMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: MonitorOptions) {
    this.queueDir = path.join(o.igniteDir, "queue");
    this.maxRetries = o.maxRetries ?? 3;
    this.log = new MonitorLog(path.join(o.igniteDir, "logs", "queue_monitor.log"), o.clock);
    this.resumeToken = `${o.clock().getTime() * 1000}-${randInt(o.random, 0, 32767)}`;
  }

  start(): void {
    this.startedAtMs = this.o.clock().getTime();
    this.log.banner(this.o.session);
    this.log.write("INFO", `セッション: ${this.o.session}`);
    const seconds = Number((this.o.pollMs / this.o.speed / 1000).toFixed(1));
    this.log.write("INFO", `キュー監視を開始します（間隔: ${seconds}秒）`);
  }

  stop(): void {
    this.log.write("INFO", "シグナル受信 (15): 安全に停止します");
  }

  /** One pass; returns how many new messages are still waiting in queues (0 = all picked up). */
  poll(): number {
    const agents = listDirs(this.queueDir).filter(isMonitoredAgent);
    let waiting = 0;
    for (const agent of agents) waiting += this.scanQueue(agent);
    for (const agent of agents) this.scanTimeouts(agent);
    const now = this.o.clock();
    const queues = scanQueueStats(this.queueDir);
    writeMonitorState(this.o.igniteDir, {
      now, session: this.o.session, workspaceDir: this.o.workspaceDir, resumeToken: this.resumeToken,
      agents, staleAgents: this.stale, queues,
    });
    if (now.getTime() - this.lastProgressMs >= 30_000 / this.o.speed) {
      appendProgress(this.o.igniteDir, now, this.resumeToken, queues);
      this.lastProgressMs = now.getTime();
    }
    return waiting;
  }

  private scanQueue(agent: string): number {
    const dir = path.join(this.queueDir, agent);
    let waiting = 0;
    for (const name of listMimeFiles(dir)) {
      const text = readIfExists(path.join(dir, name));
      if (text === null) continue;
      // Demo pacing: a retrying message waits out its backoff, so the console can show it.
      const next = Date.parse(getHeader(text, "X-IGNITE-Next-Retry-After") ?? "");
      if (getHeader(text, "X-IGNITE-Status") === "retrying" && next > this.o.clock().getTime()) continue;
      const picked = this.pickUp(agent, dir, NORMAL_NAME.test(name) ? name : this.normalize(dir, name, text));
      if (!picked) waiting += 1;
    }
    return waiting;
  }

  /** Rename `escalation_{sec}.mime` and other odd names to `{type}_{16 digits}.mime`. */
  private normalize(dir: string, name: string, text: string): string {
    const declared = getHeader(text, "X-IGNITE-Type") || name.replace(/\.mime$/, "");
    // Unlike upstream, never let a header steer the rename out of the folder.
    const type = NAME_PATTERN.test(declared) ? declared : "message";
    const dateHeader = getHeader(text, "Date") ?? "";
    const seconds = Math.floor(Date.parse(dateHeader) / 1000);
    const digits = createHash("md5").update(`${path.join(dir, name)}${dateHeader}\n`).digest("hex").replace(/\D/g, "");
    const stamp = Number.isFinite(seconds) ? `${seconds}${digits.slice(0, 6)}` : `${this.o.clock().getTime()}000`;
    let target = `${type}_${stamp}.mime`;
    for (let n = 1; readIfExists(path.join(dir, target)) !== null; n++) target = `${type}_${stamp}_${n}.mime`;
    const from = getHeader(text, "From") || "unknown";
    const to = (getHeader(text, "To") ?? "").split(",")[0]?.trim() || "unknown";
    this.log.write("WARN", `ファイル名を正規化: ${name} → ${target} (from: ${from}, to: ${to})`);
    return moveNoClobber(path.join(dir, name), path.join(dir, target)) ? target : name;
  }

  /** mv to processed/ (one rename), then `update-status processing --processed-at`. */
  private pickUp(agent: string, dir: string, name: string): boolean {
    const dest = path.join(dir, "processed", name);
    if (!moveNoClobber(path.join(dir, name), dest)) return false;
    const text = readIfExists(dest);
    if (text === null) return true;
    const now = this.o.clock();
    writeFileAtomic(dest, markProcessing(text, now), now);
    this.log.write("INFO", `新規メッセージ検知: ${name} (type: ${getHeader(text, "X-IGNITE-Type") ?? ""})`);
    const [min, max] = this.o.deliverMs;
    this.o.schedule(randInt(this.o.random, min, max), "work", () => this.deliver(agent, dest));
    return true;
  }

  private deliver(agent: string, file: string): void {
    const text = readIfExists(file);
    if (text === null || getHeader(text, "X-IGNITE-Status") !== "processing") return;
    const pane = paneIndex(agent);
    if (!this.o.canDeliver(agent, text)) {
      this.stale.add(agent);
      this.log.write("WARN", `エージェントセッションが見つかりません: ${agent} (idx=${pane})`);
      return;
    }
    const delivered = setHeader(text, "X-IGNITE-Status", "delivered");
    writeFileAtomic(file, delivered, this.o.clock());
    this.stale.delete(agent);
    this.log.write("OK", `エージェント ${agent} (idx ${pane}) にメッセージを送信しました`);
    this.o.onDelivered(agent, file, delivered);
  }

  private scanTimeouts(agent: string): void {
    const dir = path.join(this.queueDir, agent);
    const now = this.o.clock().getTime();
    for (const name of listMimeFiles(path.join(dir, "processed"))) {
      const file = path.join(dir, "processed", name);
      const mtime = mtimeMs(file);
      // Only files older than the timeout, and none left over from before this monitor started.
      if (mtime === null || mtime > now - this.o.timeoutMs / this.o.speed || mtime < this.startedAtMs) continue;
      const text = readIfExists(file);
      const status = text === null ? "-" : (getHeader(text, "X-IGNITE-Status") ?? "");
      if (text === null || !["processing", "", "retrying"].includes(status)) continue;
      if (status === "retrying" && Date.parse(getHeader(text, "X-IGNITE-Next-Retry-After") ?? "") > now) continue;
      const retries = retryCountOf(text);
      if (retries >= this.maxRetries) this.deadLetter(file, name, text, retries);
      else this.retry(dir, file, name, text, retries);
    }
  }

  private retry(dir: string, file: string, name: string, text: string, retries: number): void {
    const now = this.o.clock();
    const attempt = retries + 1;
    // Full jitter at speed 1, stretched or shrunk with the demo's clock like every other interval.
    const backoff = Math.round(retryBackoffSeconds(retries, this.o.random) / this.o.speed);
    const next = new Date(now.getTime() + backoff * 1000);
    this.log.write("INFO", `タイムアウトリトライ: ${name} (試行: ${attempt})`);
    this.log.write("RETRY", `リトライ処理: ${file} (試行: ${attempt}, バックオフ: ${backoff}秒)`);
    writeFileAtomic(file, markRetrying(text, now, next), now);
    this.log.write("RETRY", `リトライ完了: ${file} (試行: ${attempt}, 次回リトライ: ${isoWithOffset(next)})`);
    moveNoClobber(file, path.join(dir, name));
  }

  /** `move_to_dlq` then `escalate_to_leader` (which finds the original gone: "unknown" fields). */
  private deadLetter(file: string, name: string, text: string, retries: number): void {
    const now = this.o.clock();
    const lastError = `timeout after ${this.maxRetries} retries`;
    this.log.write("WARN", `リトライ上限到達: ${name} (${retries}/${this.maxRetries})`);
    const dlqDir = path.join(this.queueDir, "dead_letter");
    const base = name.replace(/\.mime$/, "");
    const dead = buildDeadLetter(text, name, {
      retryCount: retries, maxRetries: this.maxRetries, lastError, movedAt: now, messageId: this.messageId(now),
    });
    let sec = Math.floor(now.getTime() / 1000);
    while (!createFileAtomic(path.join(dlqDir, `${base}_dlq_${sec}.mime`), dead, now)) sec += 1;
    removeIfExists(file);
    this.log.write("INFO", `[DLQ] ${name} を dead_letter に移動しました (retry: ${retries}/${this.maxRetries})`);
    const escalation = buildEscalation({
      failureReason: lastError, retryCount: retries, maxRetries: this.maxRetries,
      dlqPath: `${dlqDir}/`, date: now, messageId: this.messageId(now),
    });
    let escSec = Math.floor(now.getTime() / 1000);
    let escFile = path.join(this.queueDir, "leader", `escalation_${escSec}.mime`);
    while (!createFileAtomic(escFile, escalation, now)) {
      escFile = path.join(this.queueDir, "leader", `escalation_${++escSec}.mime`);
    }
    this.log.write("WARN", `[DLQ] Leaderへエスカレーション通知を送信しました: ${escFile}`);
  }

  private messageId(now: Date): string {
    return newMessageId(now, this.o.nextPid(), () => random64(this.o.random));
  }
}
