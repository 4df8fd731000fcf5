// One big thread for the thread-page benchmark: rounds of leader → coordinator → eight ignitians →
// completions → evaluator → leader, every message replying to the one that caused it, a few
// assignments retried or dead-lettered (with the original inside), the last round still queued.
import fs from "node:fs";
import path from "node:path";
import { ignite } from "@/lib/protocols/fixtures";

const { buildDeadLetter, buildMessage, markProcessing, markRetrying, messageFileName, setHeader } = ignite;

const WORKERS = Array.from({ length: 8 }, (_, i) => `ignitian_${i + 1}`);
const AGENTS = ["user", "leader", "strategist", "coordinator", "evaluator", ...WORKERS];

export interface ThreadTree {
  threadId: string;
  /** Messages the journal will hold (a dead letter's original counts too). */
  messages: number;
}

export function generateThreadTree(root: string, n: number, threadId = "thr_big"): ThreadTree {
  const queue = path.join(root, ".ignite", "queue");
  for (const a of AGENTS) fs.mkdirSync(path.join(queue, a, "processed"), { recursive: true });
  fs.mkdirSync(path.join(queue, "dead_letter"), { recursive: true });
  const start = Date.parse("2026-11-20T00:00:00Z");
  let i = 0;
  let count = 0;

  const send = (from: string, to: string, type: string, inReplyTo: string | undefined, fate: "delivered" | "queued" | "retrying" | "dead" = "delivered") => {
    const date = new Date(start + i * 7_000);
    const messageId = `<${Math.floor(date.getTime() / 10)}.${4000 + (i % 900)}.${i}@ignite.local>`;
    const body = `task_id: "task_${String(Math.floor(i / 19)).padStart(3, "0")}"\ntitle: "ラウンド ${Math.floor(i / 19)} の ${type}"\nnote: "message ${i}"\n`;
    const text = buildMessage({ from, to: [to], type, threadId, inReplyTo, repository: "owner/repo", issue: 42, body, date, messageId });
    const name = messageFileName(type, date, i % 1000);
    i++;
    if (fate === "dead") {
      const dead = setHeader(markProcessing(text, date), "X-IGNITE-Retry-Count", "3");
      const letter = buildDeadLetter(dead, name, { retryCount: 3, maxRetries: 3, lastError: "timeout after 3 retries", movedAt: new Date(date.getTime() + 3_000) });
      fs.writeFileSync(path.join(queue, "dead_letter", name.replace(/\.mime$/, `_dlq_${Math.floor(date.getTime() / 1000) + 3}.mime`)), letter);
      count += 2;
    } else {
      const file = fate === "delivered" ? path.join(queue, to, "processed", name) : path.join(queue, to, name);
      const written =
        fate === "delivered" ? setHeader(markProcessing(text, date), "X-IGNITE-Status", "delivered")
        : fate === "retrying" ? markRetrying(markProcessing(text, date), date, new Date(date.getTime() + 20_000))
        : text;
      fs.writeFileSync(file, written);
      count++;
    }
    return messageId;
  };

  let last = send("user", "leader", "user_goal", undefined);
  for (let round = 0; count < n; round++) {
    const final = count + 24 >= n;
    const list = send("leader", "coordinator", "task_list", last, final ? "queued" : "delivered");
    const done: string[] = [];
    for (const [w, worker] of WORKERS.entries()) {
      if (count >= n) break;
      const fate = round % 7 === 3 && w === 2 ? "dead" : round % 5 === 1 && w === 5 ? "retrying" : final ? "queued" : "delivered";
      const assignment = send("coordinator", worker, "task_assignment", list, fate);
      if (fate === "delivered" && count < n) done.push(send(worker, "coordinator", "task_completed", assignment));
    }
    if (count >= n) break;
    const evaluation = send("coordinator", "evaluator", "evaluation_request", done[done.length - 1] ?? list);
    if (count >= n) break;
    last = send("evaluator", "leader", "evaluation_result", evaluation);
  }
  return { threadId, messages: count };
}
