// What a reply to a message starts as: who answers whom, with which type, in which thread. Pure.
import type { YamlValue } from "@/lib/model";
import type { ReplyOriginal as Original, ReplyPlan } from "@/lib/protocols/types";
import { templateFor, type TemplateSeed } from "./templates";

/**
 * The usual answer to each request type. An escalation comes from the queue monitor, which
 * reads no queue: the answer is the operator's `decision`, sent to the leader the escalation
 * went to (see planReply).
 */
export const REPLY_TYPES: Readonly<Record<string, string>> = {
  strategy_request: "strategy_response",
  task_list: "task_assignment",
  task_assignment: "task_completed",
  evaluation_request: "evaluation_result",
  improvement_request: "improvement_completed",
  architecture_request: "architecture_response",
  escalation: "decision",
  dead_letter: "decision",
  github_event: "github_task",
};

/** The sender a reply is written as when it does not come from one of the agents. */
export const OPERATOR = "user";

export type { ReplyPlan };

/** `thr_` and 8 random hex digits, like the hand-made ids in the wild (thr_readme_42). */
export function newThreadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `thr_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function seedFrom(m: Original): TemplateSeed {
  const data = m.data !== null && typeof m.data === "object" && !Array.isArray(m.data) ? m.data : {};
  const pick = (value: YamlValue | undefined) => (typeof value === "string" || typeof value === "number" ? String(value) : undefined);
  const firstTask = Array.isArray(data.tasks) ? data.tasks[0] : undefined;
  const task = firstTask !== null && typeof firstTask === "object" && !Array.isArray(firstTask) ? firstTask : {};
  return {
    task_id: pick(data.task_id) ?? pick(task.task_id),
    title: pick(data.title) ?? pick(task.title) ?? pick(data.issue_title),
    description: pick(task.description),
    goal: pick(data.goal),
    repository: m.repository ?? pick(data.repository),
    issue: m.issue ?? pick(data.issue_number),
    dlq_path: pick(data.dlq_path),
  };
}

/**
 * A reply goes back to the sender, written as the agent it was sent to. When the sender has no
 * queue (user, queue_monitor, github_watcher…), it goes to the agents the message went to,
 * written as the operator ("user") — so an escalation's reply is a decision for the leader.
 */
export function planReply(m: Original, agents: readonly string[], threadId: string = newThreadId()): ReplyPlan {
  const notes: string[] = [];
  const isAgent = (name: string | null): name is string => name !== null && agents.includes(name);
  let from: string;
  let to: string[];
  if (isAgent(m.from)) {
    to = [m.from];
    from = m.to.find(isAgent) ?? m.to[0] ?? OPERATOR;
  } else {
    to = m.to.filter(isAgent);
    from = OPERATOR;
    notes.push(
      `${m.from ?? "The sender"} has no queue folder, so the reply goes to ${to.length ? to.join(", ") : "the agent you choose"} as "${OPERATOR}".`,
    );
  }
  const original = m.type ?? "";
  const usual = Object.hasOwn(REPLY_TYPES, original) ? REPLY_TYPES[original] : undefined;
  const type = usual ?? original;
  if (original && !usual) notes.push(`There is no usual reply to ${original}; the reply keeps its type. Change it if another fits.`);
  if (!m.threadId) {
    notes.push(`The original has no thread id: ${threadId} is a new one that starts a thread with this reply. Clear it to send without one.`);
  }
  if (!m.messageId) notes.push("The original has no Message-ID, so the reply cannot name it in In-Reply-To.");
  return {
    source: m.source,
    from,
    to,
    type,
    priority: type === "decision" ? "high" : "normal",
    threadId: m.threadId ?? threadId,
    inReplyTo: m.messageId ?? "",
    repository: m.repository ?? "",
    issue: m.issue ?? "",
    body: templateFor(type, seedFrom(m)),
    notes,
  };
}
