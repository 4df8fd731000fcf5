// A generated IGNITE tree shaped like a real workspace, for the benchmark: 14 agents, most
// messages delivered in processed/, some queued, processing, retrying and dead, in threads,
// with Japanese bodies. Deterministic for a given seed.
import fs from "node:fs";
import path from "node:path";
import { ignite } from "@/lib/protocols/fixtures";
import { seededRandom } from "@/lib/demo/random";

const { buildDeadLetter, buildMessage, markProcessing, markRetrying, messageFileName, setHeader } = ignite;

export const BENCH_AGENTS = [
  "leader", "strategist", "architect", "evaluator", "coordinator", "innovator",
  ...Array.from({ length: 8 }, (_, i) => `ignitian_${i + 1}`),
];

const TYPES = ["task_assignment", "task_completed", "evaluation_request", "evaluation_result", "progress_update", "strategy_request"];
const TITLES = ["README骨組み作成", "インストール手順の執筆", "CIのnpmキャッシュ改善", "使い方セクションの執筆", "テスト追加", "リンク切れ修正"];

export interface GeneratedTree {
  root: string;
  messages: number;
  files: number;
}

/** Write `n` messages under `<root>/.ignite/queue/`. Each dead letter also stands for its original. */
export function generateIgniteTree(root: string, n: number, seed = 42): GeneratedTree {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const queue = path.join(root, ".ignite", "queue");
  for (const a of BENCH_AGENTS) fs.mkdirSync(path.join(queue, a, "processed"), { recursive: true });
  fs.mkdirSync(path.join(queue, "dead_letter"), { recursive: true });
  const start = Date.parse("2026-01-01T00:00:00Z");
  let files = 0;
  let messages = 0;
  let previousId = "";
  for (let i = 0; messages < n; i++) {
    const date = new Date(start + i * 30_000);
    const from = pick(BENCH_AGENTS);
    const to = pick(BENCH_AGENTS.filter((a) => a !== from));
    const type = pick(TYPES);
    const thread = `thr_${Math.floor(i / 20)}`;
    const messageId = `<${Math.floor(date.getTime() / 10)}.${1000 + (i % 5000)}.${i}@ignite.local>`;
    const body = `task_id: "task_${i}"\ntitle: "${pick(TITLES)}"\ndescription: "メッセージ ${i} の本文。担当 ${to} へ。"\nestimated_time: ${300 + (i % 900)}\n`;
    let text = buildMessage({
      from, to: [to], type, priority: random() < 0.2 ? "high" : "normal", threadId: thread,
      inReplyTo: i % 20 === 0 ? undefined : previousId, repository: "owner/repo", issue: 1 + Math.floor(i / 20), body, date, messageId,
    });
    previousId = messageId;
    const name = messageFileName(type, date, i % 1000);
    const roll = random();
    let file: string;
    if (roll < 0.01 && messages + 2 <= n) {
      // A dead letter holds its original: two messages in one file.
      const dead = setHeader(markProcessing(text, date), "X-IGNITE-Retry-Count", "3");
      text = buildDeadLetter(dead, name, { retryCount: 3, maxRetries: 3, lastError: "timeout after 3 retries", movedAt: date });
      file = path.join(queue, "dead_letter", name.replace(/\.mime$/, `_dlq_${Math.floor(date.getTime() / 1000)}.mime`));
      messages += 2;
    } else if (roll < 0.04) {
      file = path.join(queue, to, name);
      messages++;
    } else if (roll < 0.06) {
      text = markRetrying(markProcessing(text, date), date, new Date(date.getTime() + 10_000));
      file = path.join(queue, to, name);
      messages++;
    } else if (roll < 0.08) {
      text = markProcessing(text, date);
      file = path.join(queue, to, "processed", name);
      messages++;
    } else {
      text = setHeader(markProcessing(text, date), "X-IGNITE-Status", "delivered");
      file = path.join(queue, to, "processed", name);
      messages++;
    }
    fs.writeFileSync(file, text, { mode: 0o600 });
    fs.utimesSync(file, date, date);
    files++;
  }
  return { root, messages, files };
}
