// IGNITE v2's queue monitor (queue_monitor.sh, retry_handler.sh, dlq_handler.sh of the releases
// before MIME), on the demo's clock: it moves a message from `queue/<agent>/` to `processed/` and
// appends `status: processing` and `processed_at:` (one more pair on every pick-up), delivers it
// (`status: delivered`), retries one that timed out (`process_retry`: back to the queue with
// retry_count, last_retry_at, next_retry_after), and after three retries writes the dead letter
// with the original under `original_message: |` and an `escalation_{seconds}.yaml` for the
// leader, which it renames to the 16-digit form on its next poll.
import { createHash } from "node:crypto";
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import { keyLine, unquotedValue } from "@/lib/protocols/entry-kit";
import { appendKey, markRetrying, quoted, retryCountOf } from "../lifecycle";
import { createFileAtomic, listDirs, listFilesEnding, moveNoClobber, readIfExists, removeIfExists, writeFileAtomic } from "@/lib/demo/fsops";
import { isoWithOffset, paneIndex, retryBackoffSeconds } from "@/lib/protocols/ignite/demo";
import { randInt, type Random } from "@/lib/demo/random";

export interface V2MonitorOptions {
  /** The workspace root (it holds `queue/`). */
  root: string;
  clock: () => Date;
  random: Random;
  speed: number;
  timeoutMs: number;
  deliverMs: [number, number];
  schedule: (delayMs: number, run: () => void) => void;
  /** false: the agent does not answer, so the message stays `processing` and times out. */
  canDeliver: (name: string, text: string) => boolean;
  onDelivered: (agent: string, file: string, text: string) => void;
}

const MAX_RETRIES = 3;
const NORMAL_NAME = /^.+_[0-9]{16}\.yaml$/;

/** The last `key:` line's value, unquoted (the lifecycle keys pile up; the last one is current). */
export function lastValue(text: string, key: string): string | null {
  let last: string | null = null;
  for (const line of text.split("\n")) {
    const field = keyLine(line);
    const value = field?.key === key ? unquotedValue(field.value) : null;
    if (value !== null) last = value;
  }
  return last;
}

const yamlFiles = (dir: string) => listFilesEnding(dir, ".yaml");

export class V2Monitor {
  private readonly queueDir: string;

  constructor(private readonly o: V2MonitorOptions) {
    this.queueDir = path.join(o.root, "queue");
  }

  /** One pass; returns how many messages still wait in queues (0: everything was picked up). */
  poll(): number {
    const agents = listDirs(this.queueDir).filter((a) => paneIndex(a) !== null);
    let waiting = 0;
    for (const agent of agents) waiting += this.scanQueue(agent);
    for (const agent of agents) this.scanTimeouts(agent);
    return waiting;
  }

  /** Messages in queues now that a poll will pick up (not those waiting out a retry's backoff). */
  waitingNow(): number {
    const now = this.o.clock().getTime();
    return listDirs(this.queueDir)
      .filter((a) => paneIndex(a) !== null)
      .flatMap((agent) => yamlFiles(path.join(this.queueDir, agent)).map((name) => readIfExists(path.join(this.queueDir, agent, name)) ?? ""))
      .filter((text) => !(lastValue(text, "status") === "retrying" && Date.parse(lastValue(text, "next_retry_after") ?? "") > now)).length;
  }

  private scanQueue(agent: string): number {
    const dir = path.join(this.queueDir, agent);
    let waiting = 0;
    for (const name of yamlFiles(dir)) {
      const text = readIfExists(path.join(dir, name));
      if (text === null) continue;
      const next = Date.parse(lastValue(text, "next_retry_after") ?? "");
      if (lastValue(text, "status") === "retrying" && next > this.o.clock().getTime()) continue;
      if (!this.pickUp(agent, dir, NORMAL_NAME.test(name) ? name : this.normalize(dir, name, text))) waiting += 1;
    }
    return waiting;
  }

  /** `{type}_{seconds}{6 digits of an md5}.yaml` from the `type:` and `timestamp:` fields (`_N` on a collision). */
  private normalize(dir: string, name: string, text: string): string {
    const declared = lastValue(text, "type") ?? "message";
    const type = NAME_PATTERN.test(declared) ? declared : "message";
    const timestamp = lastValue(text, "timestamp") ?? "";
    const seconds = Math.floor(Date.parse(timestamp) / 1000);
    const digits = createHash("md5").update(`${path.join(dir, name)}${timestamp}\n`).digest("hex").replace(/\D/g, "").padEnd(6, "0");
    const stamp = Number.isFinite(seconds) ? `${seconds}${digits.slice(0, 6)}` : `${this.o.clock().getTime()}000`;
    let target = `${type}_${stamp}.yaml`;
    for (let n = 1; readIfExists(path.join(dir, target)) !== null; n++) target = `${type}_${stamp}_${n}.yaml`;
    return moveNoClobber(path.join(dir, name), path.join(dir, target)) ? target : name;
  }

  private pickUp(agent: string, dir: string, name: string): boolean {
    const dest = path.join(dir, "processed", name);
    if (!moveNoClobber(path.join(dir, name), dest)) return false;
    const text = readIfExists(dest);
    if (text === null) return true;
    const now = this.o.clock();
    writeFileAtomic(dest, appendKey(appendKey(text, "status", "processing"), "processed_at", quoted(isoWithOffset(now))), now);
    this.o.schedule(randInt(this.o.random, ...this.o.deliverMs), () => this.deliver(agent, name, dest));
    return true;
  }

  private deliver(agent: string, name: string, file: string): void {
    const text = readIfExists(file);
    if (text === null || lastValue(text, "status") !== "processing" || !this.o.canDeliver(name, text)) return;
    const delivered = text.replace(/^status:.*$/gm, "status: delivered");
    writeFileAtomic(file, delivered, this.o.clock());
    this.o.onDelivered(agent, file, delivered);
  }

  private scanTimeouts(agent: string): void {
    const dir = path.join(this.queueDir, agent);
    const now = this.o.clock().getTime();
    for (const name of yamlFiles(path.join(dir, "processed"))) {
      const file = path.join(dir, "processed", name);
      const text = readIfExists(file);
      if (text === null || lastValue(text, "status") !== "processing") continue;
      const since = Date.parse(lastValue(text, "processed_at") ?? "");
      if (!(now - since > this.o.timeoutMs / this.o.speed)) continue;
      const retries = retryCountOf(text);
      if (retries >= MAX_RETRIES) this.deadLetter(file, name, text, retries);
      else this.retry(dir, file, name, text, retries);
    }
  }

  private retry(dir: string, file: string, name: string, text: string, retries: number): void {
    const now = this.o.clock();
    const backoff = Math.round(retryBackoffSeconds(retries, this.o.random) / this.o.speed);
    const next = new Date(now.getTime() + backoff * 1000);
    writeFileAtomic(file, markRetrying(text, isoWithOffset(now), isoWithOffset(next)), now);
    moveNoClobber(file, path.join(dir, name));
  }

  private deadLetter(file: string, name: string, text: string, retries: number): void {
    const now = this.o.clock();
    const at = quoted(isoWithOffset(now));
    const lastError = `timeout after ${MAX_RETRIES} retries`;
    const original = text.replace(/\n$/, "").split("\n").map((l) => (l === "" ? l : `    ${l}`)).join("\n");
    const letter = [
      "type: dead_letter", `timestamp: ${at}`, `original_file: ${quoted(name)}`, "failure_info:",
      `  retry_count: ${retries}`, `  max_retries: ${MAX_RETRIES}`, `  last_error: ${quoted(lastError)}`, `  moved_at: ${at}`,
      "original_message: |", original, "",
    ].join("\n");
    const dlqDir = path.join(this.queueDir, "dead_letter");
    let sec = Math.floor(now.getTime() / 1000);
    while (!createFileAtomic(path.join(dlqDir, `${name.replace(/\.yaml$/, "")}_dlq_${sec}.yaml`), letter, now)) sec += 1;
    removeIfExists(file);
    // escalate_to_leader looks the original up after it moved: its fields are all "unknown".
    const escalation = [
      "type: escalation", "from: queue_monitor", "to: leader", `timestamp: ${at}`, "priority: critical", "payload:",
      '  task_id: "unknown"', '  title: "unknown"', '  original_assignee: "unknown"', `  failure_reason: ${quoted(lastError)}`,
      `  retry_count: ${retries}`, `  max_retries: ${MAX_RETRIES}`, '  recommended_action: "manual_review"',
      `  dlq_path: ${quoted(`${dlqDir}/`)}`, '  notes: "リトライ上限に到達したためエスカレーションします"', "status: queued", "",
    ].join("\n");
    let escSec = Math.floor(now.getTime() / 1000);
    while (!createFileAtomic(path.join(this.queueDir, "leader", `escalation_${escSec}.yaml`), escalation, now)) escSec += 1;
  }
}
