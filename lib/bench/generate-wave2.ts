// Generated trees of the four wave-2 protocols for the benchmark, each in its own layout (protocol
// docs, fixtures/<protocol>/): IGNITE v2 YAML queue files, shogun inboxes, workflow channels with
// their ack files, KickLang channels. Deterministic for a given seed; files are written through a
// buffered appender, so no generator holds a whole tree (or a whole 100 MB channel) in memory.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { seededRandom, type Random } from "@/lib/demo/random";
import { CHANNELS_DIR, channelToPath } from "@/lib/protocols/kicklang";

export interface GeneratedPart {
  /** Messages as the journal counts them (workflow acks and shogun documents are not messages). */
  messages: number;
  files: number;
}

const START_MS = Date.parse("2026-01-01T00:00:00Z");
const TITLES = ["README骨組み作成", "インストール手順の執筆", "CIのnpmキャッシュ改善", "使い方セクションの執筆", "テスト追加", "リンク切れ修正"];
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").slice(-width);

/**
 * Appends to one file in ~1 MiB writes: a channel of any size is written without holding it. Closed,
 * the file gets the mtime its writer would have left: its newest entry's time (a first scan reads
 * the newest files first by it).
 */
export class FileAppender {
  private readonly fd: number;
  private chunks: string[] = [];
  private pending = 0;
  private newestMs = -Infinity;
  bytes = 0;

  constructor(private readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, "a", 0o600);
  }

  /** `atMs`: when the writer appended it. */
  add(text: string, atMs?: number): void {
    if (atMs !== undefined) this.newestMs = Math.max(this.newestMs, atMs);
    this.chunks.push(text);
    const n = Buffer.byteLength(text);
    this.pending += n;
    this.bytes += n;
    if (this.pending >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.chunks.length > 0) fs.writeSync(this.fd, this.chunks.join(""));
    this.chunks = [];
    this.pending = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
    if (Number.isFinite(this.newestMs)) fs.utimesSync(this.file, this.newestMs / 1000, this.newestMs / 1000);
  }
}

// ---------------------------------------------------------------- IGNITE v2 (YAML)

const V2_AGENTS = ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator", ...Array.from({ length: 8 }, (_, i) => `ignitian_${i + 1}`)];
const V2_TYPES = ["task_assignment", "task_completed", "evaluation_request", "progress_update"];

/** `n` messages under `<root>/queue/<agent>/` (a few pending), most in `processed/` as delivered. */
export function generateIgniteYaml(root: string, n: number, seed = 2): GeneratedPart {
  const random = seededRandom(seed);
  const queue = path.join(root, "queue");
  for (const a of V2_AGENTS) fs.mkdirSync(path.join(queue, a, "processed"), { recursive: true });
  for (let i = 0; i < n; i++) {
    const date = new Date(START_MS + i * 30_000);
    const from = pick(random, V2_AGENTS);
    const to = pick(random, V2_AGENTS.filter((a) => a !== from));
    const type = pick(random, V2_TYPES);
    const stamp = date.toISOString().replace(/\.\d{3}Z$/, "+00:00");
    const pending = random() < 0.04;
    const text = [
      `type: ${type}`, `from: ${from}`, `to: ${to}`, `timestamp: "${stamp}"`, `priority: ${random() < 0.2 ? "high" : "normal"}`, "payload:",
      `  task_id: "task_${i}"`, `  title: "${pick(random, TITLES)}"`, `  repository: "owner/repo"`, `  issue: ${1 + Math.floor(i / 20)}`,
      `  description: |`, `    メッセージ ${i} の本文。担当 ${to} へ。`,
      ...(pending ? [] : ["status: delivered", `processed_at: "${stamp}"`]), "",
    ].join("\n");
    // {type}_{16 digits}: microseconds, unique per message.
    const name = `${type}_${String(date.getTime() * 1000 + (i % 1000)).padStart(16, "0")}.yaml`;
    const file = path.join(queue, to, ...(pending ? [] : ["processed"]), name);
    fs.writeFileSync(file, text, { mode: 0o600 });
    fs.utimesSync(file, date, date);
  }
  return { messages: n, files: n };
}

// ---------------------------------------------------------------- shogun

/** Under shogun's overflow rule (past 50 an inbox is trimmed to its unread + newest 30 read), so nothing is archived. */
const SHOGUN_PER_INBOX = 40;
const SHOGUN_TYPES = ["task_assigned", "report_received", "clear_command", "wake_up"];

/** Local time as shogun writes it: no offset, seconds. */
const shogunTime = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** `n` messages in `<root>/queue/inbox/ashigaru<k>.yaml`, 40 an inbox (most read), keys sorted as upstream's yaml.dump writes them. */
export function generateShogun(root: string, n: number, seed = 3): GeneratedPart {
  const random = seededRandom(seed);
  const inbox = path.join(root, "queue", "inbox");
  fs.mkdirSync(inbox, { recursive: true });
  let files = 0;
  for (let first = 0; first < n; first += SHOGUN_PER_INBOX) {
    const out = new FileAppender(path.join(inbox, `ashigaru${files + 1}.yaml`));
    out.add("messages:\n");
    const count = Math.min(SHOGUN_PER_INBOX, n - first);
    for (let k = 0; k < count; k++) {
      const i = first + k;
      const ms = START_MS + i * 30_000;
      const stamp = shogunTime(ms);
      const id = `msg_${stamp.slice(0, 10).replaceAll("-", "")}_${stamp.slice(11).replaceAll(":", "")}_${hex(i, 8)}`;
      out.add(
        `- content: 'タスク task_${i} (${pick(random, TITLES)}) を読んで作業開始せよ。'\n  from: karo\n  id: ${id}\n` +
          `  read: ${k < count - 2 ? "true" : "false"}\n  timestamp: '${stamp}'\n  type: ${pick(random, SHOGUN_TYPES)}\n`,
        ms,
      );
    }
    out.close();
    files++;
  }
  return { messages: n, files };
}

// ---------------------------------------------------------------- workflow

const WF_AGENTS = ["agent_architecture", "agent_cognitive", "agent_security", "agent_workflow", "agent_industry"];
// A multiple of 3: each workflow holds whole assign → progress → complete triples.
const WF_PER_WORKFLOW = 999;

/** A workflow message id as the tools make them: `msg_YYYYmmdd_HHMMSS_<8 hex>`. */
const wfId = (ms: number, i: number) => {
  const s = new Date(ms).toISOString();
  return `msg_${s.slice(0, 10).replaceAll("-", "")}_${s.slice(11, 19).replaceAll(":", "")}_${hex(i, 8)}`;
};

/**
 * `n` messages in workflows of 999 under `<root>/.claude/workflow/<id>/channel/`: a task_assign
 * to an agent (acked received, then processed, in its `.ack`), a progress_update to it, and its
 * task_complete to the orchestrator, as compact lines.
 */
export function generateWorkflow(root: string, n: number, seed = 4): GeneratedPart {
  const random = seededRandom(seed);
  let files = 0;
  for (let first = 0, w = 0; first < n; first += WF_PER_WORKFLOW, w++) {
    const dir = path.join(root, ".claude", "workflow", `orchestrate_20260101_${hex(w, 6)}_${hex(seed * 1000 + w, 8)}`, "channel");
    const toOrchestrator = new FileAppender(path.join(dir, "orchestrator.jsonl"));
    const channels = new Map(WF_AGENTS.map((a) => [a, new FileAppender(path.join(dir, "agents", `${a}.jsonl`))]));
    const acks = new Map(WF_AGENTS.map((a) => [a, new FileAppender(path.join(dir, "agents", `${a}.ack`))]));
    const count = Math.min(WF_PER_WORKFLOW, n - first);
    for (let k = 0; k < count; k++) {
      const i = first + k;
      const ms = START_MS + i * 30_000;
      const agent = WF_AGENTS[Math.floor(k / 3) % WF_AGENTS.length] as string;
      const task = `task_${Math.floor(i / 3)}`;
      const id = wfId(ms, i);
      const at = (d: number) => new Date(ms + d).toISOString();
      const step = k % 3;
      if (step === 2) {
        const payload = { task_id: task, output: `.claude/memory/research/${task}.md` };
        toOrchestrator.add(`${JSON.stringify({ id, timestamp: at(0), from: agent, to: "orchestrator", type: "task_complete", payload, requires_ack: false })}\n`, ms);
        continue;
      }
      const type = step === 0 ? "task_assign" : "progress_update";
      const payload = step === 0 ? { task_id: task, perspective: agent.slice(6), topic: pick(random, TITLES) } : { note: `${task} の進捗を報告せよ` };
      channels.get(agent)?.add(`${JSON.stringify({ id, timestamp: at(0), from: "orchestrator", to: agent, type, payload, requires_ack: step === 0 })}\n`, ms);
      if (step === 0) {
        acks.get(agent)?.add(`${JSON.stringify({ msg_id: id, status: "received", at: at(1500) })}\n${JSON.stringify({ msg_id: id, status: "processed", at: at(20_000) })}\n`, ms + 20_000);
      }
    }
    for (const f of [toOrchestrator, ...channels.values(), ...acks.values()]) f.close();
    files += 1 + 2 * WF_AGENTS.length;
  }
  return { messages: n, files };
}

// ---------------------------------------------------------------- KickLang

export interface EnvelopeFields {
  id: string;
  timestamp: string;
  sender: string;
  receiver: string;
  type: "Command" | "Query" | "Info" | "Alert";
  channel: string;
  content: string;
  correlationId: string | null;
}

/** One envelope as KickLang's writer appends it: compact JSON, its keys in the writer's order, one line. */
export function envelopeLine(e: EnvelopeFields): string {
  const { correlationId, ...rest } = e;
  return `${JSON.stringify({ ...rest, correlation_id: correlationId })}\n`;
}

/**
 * A uuid v4 unique per (`kind`, `i`): deterministic, unlike randomUUID, and as scattered as real
 * ones. KickLang's writers use random ids (uuid v4, or Math.random() in base 36), so every index on
 * an id takes a channel's envelopes in no order. Ids counting up in order went in at one end of each
 * index instead: a stream's appends cost half the CPU they cost on a channel of random ids
 * (scripts/bench-append.ts: 0.25 against 0.49 CPU-s per 1,000 appends, as the WAL got 14 KB an
 * append against 141), and that cost grew during the bench's window as its own random ids piled up.
 */
export const benchUuid = (kind: number, i: number) => {
  const h = createHash("sha1").update(`${kind}:${i}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[parseInt(h.charAt(16), 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const KICKLANG_ROLES = ["WePlan", "PromptEngineer", "Kick La Metta", "QllickBuzz & QllickFizz", "CodeSmith"];
export const DISPATCH = "⫻command/dispatch";
export const STATUS = "⫻report/status";
const ARTIFACT = "⫻report/artifact";

export const channelFile = (root: string, channel: string) => path.join(root, ...CHANNELS_DIR.split("/"), ...(channelToPath(channel) ?? "").split("/"));

/** A report in the thread of dispatch `request`, its Space Format content padded with `padding` characters of text. */
export function reportEnvelope(id: string, ms: number, sender: string, request: string, task: number, seqNo: number, text: string, channel = STATUS): EnvelopeFields {
  const content = `${channel}:task_${task}/${String(seqNo).padStart(3, "0")}\n${text}`;
  return { id, timestamp: new Date(ms).toISOString(), sender, receiver: "Orchestrator", type: "Info", channel, content, correlationId: request };
}

/**
 * `n` envelopes in threads of four: the Orchestrator's dispatch, then its role's "Accepted",
 * an artifact, and "Completed", each carrying the dispatch's correlation id.
 */
export function generateKicklang(root: string, n: number, seed = 5): GeneratedPart {
  const random = seededRandom(seed);
  const files = new Map([DISPATCH, STATUS, ARTIFACT].map((c) => [c, new FileAppender(channelFile(root, c))]));
  const add = (e: EnvelopeFields) => files.get(e.channel)?.add(envelopeLine(e), Date.parse(e.timestamp));
  for (let i = 0; i < n; i++) {
    const task = Math.floor(i / 4);
    const ms = START_MS + i * 30_000;
    const role = KICKLANG_ROLES[task % KICKLANG_ROLES.length] as string;
    const request = benchUuid(seed, task * 4);
    const id = benchUuid(seed, i);
    const title = pick(random, TITLES);
    switch (i % 4) {
      case 0:
        add({ id, timestamp: new Date(ms).toISOString(), sender: "Orchestrator", receiver: role, type: "Command", channel: DISPATCH, content: `${DISPATCH}:task_${task}/001\n${title} を実行せよ`, correlationId: null });
        break;
      case 1:
        add(reportEnvelope(id, ms, role, request, task, 1, "Accepted"));
        break;
      case 2:
        add(reportEnvelope(id, ms, role, request, task, 1, `${title}: docs/task_${task}.md`, ARTIFACT));
        break;
      default:
        add(reportEnvelope(id, ms, role, request, task, 2, "Completed"));
    }
  }
  for (const f of files.values()) f.close();
  return { messages: n, files: files.size };
}
