// The team's behaviour: what each agent sends when a message is delivered to it. Reactions are
// driven by the delivered file alone (type, headers, YAML body), so messages written by anyone
// (e.g. a user_goal sent from Mailroom's compose page) get the same treatment.
import { parse as parseYaml } from "yaml";
import { getHeader } from "../build";
import {
  evaluationRequestBody, evaluationResultBody, improvementRequestBody, progressUpdateBody,
  strategyRequestBody, strategyResponseBody, taskAssignmentBody, taskCompletedBody, taskListBody,
  userGoalBody,
} from "./bodies";
import { adHocGoal, type DemoGoal, type DemoTask } from "./goals";
import { randInt, type Random } from "@/lib/demo/random";

export interface Outgoing {
  from: string;
  to: string;
  type: string;
  priority: "high" | "normal";
  body: string;
  threadId?: string;
  inReplyTo?: string;
  repository?: string;
  issue?: string;
}

interface Thread {
  goal: DemoGoal;
  issue: number;
  done: string[];
}

type Body = Record<string, unknown>;

function bodyOf(text: string): Body {
  const at = text.indexOf("\n\n");
  try {
    const data: unknown = parseYaml(at >= 0 ? text.slice(at + 2) : "");
    return data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Body) : {};
  } catch {
    return {};
  }
}

const str = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : undefined);

export class Team {
  private readonly threads = new Map<string, Thread>();

  constructor(
    private readonly random: Random,
    private readonly ignitians: string[],
  ) {}

  /** Remember which goal a thread is about (the demo registers the goals it sends). */
  register(threadId: string, goal: DemoGoal, issue: number): void {
    this.threads.set(threadId, { goal, issue, done: [] });
  }

  /** The user_goal that starts a thread. */
  userGoal(threadId: string): Outgoing {
    const t = this.threadOf(threadId, {});
    return {
      from: "user", to: "leader", type: "user_goal", priority: "high", body: userGoalBody(t.goal, t.issue),
      threadId, repository: t.goal.repository, issue: String(t.issue),
    };
  }

  react(agent: string, text: string): Outgoing[] {
    const type = getHeader(text, "X-IGNITE-Type");
    const body = bodyOf(text);
    const thread = this.threadOf(getHeader(text, "X-IGNITE-Thread-ID") ?? "", body, text);
    const { goal, issue } = thread;
    // Replies stay in the thread and answer the delivered message.
    const reply = (to: string, replyType: string, priority: Outgoing["priority"], replyBody: string, inReply = true): Outgoing => ({
      from: agent, to, type: replyType, priority, body: replyBody,
      threadId: getHeader(text, "X-IGNITE-Thread-ID") || undefined,
      inReplyTo: inReply ? getHeader(text, "Message-ID") || undefined : undefined,
      repository: getHeader(text, "X-IGNITE-Repository") || undefined,
      issue: getHeader(text, "X-IGNITE-Issue") || undefined,
    });
    const task = this.taskOf(goal, body);

    if (agent === "leader" && type === "user_goal") {
      return [reply("strategist", "strategy_request", "high", strategyRequestBody(goal, issue))];
    }
    if (agent === "strategist" && type === "strategy_request") {
      return [
        reply("leader", "strategy_response", "normal", strategyResponseBody(goal)),
        reply("coordinator", "task_list", "high", taskListBody(goal)),
      ];
    }
    if (agent === "coordinator" && type === "task_list") {
      thread.done = [];
      return goal.tasks.map((t, i) =>
        reply(this.ignitians[i % this.ignitians.length] ?? "ignitian_1", "task_assignment", "high", taskAssignmentBody(t)));
    }
    if (/^ignitian[-_]\d+$/.test(agent) && type === "task_assignment") {
      return [reply("coordinator", "task_completed", "normal", taskCompletedBody(task, randInt(this.random, 300, 1200)))];
    }
    if (agent === "coordinator" && type === "task_completed") {
      if (!thread.done.includes(task.id)) thread.done.push(task.id);
      const progress = { total: goal.tasks.length, done: thread.done };
      return [
        reply("evaluator", "evaluation_request", "high", evaluationRequestBody(task, goal)),
        reply("leader", "progress_update", "normal", progressUpdateBody(goal, issue, progress), false),
      ];
    }
    if (agent === "evaluator" && type === "evaluation_request") {
      const flagged = this.random() < 0.4;
      const score = flagged ? randInt(this.random, 72, 86) : randInt(this.random, 87, 98);
      const out = [reply("leader", "evaluation_result", "normal", evaluationResultBody(goal, task, score, flagged ? goal.finding : null))];
      if (flagged) out.push(reply("innovator", "improvement_request", "normal", improvementRequestBody(task, goal.finding)));
      return out;
    }
    return [];
  }

  private threadOf(threadId: string, body: Body, text = ""): Thread {
    let thread = this.threads.get(threadId);
    if (!thread) {
      const issue = Number.parseInt(getHeader(text, "X-IGNITE-Issue") ?? "", 10) || 0;
      const goal = adHocGoal(str(body.goal) ?? "ad hoc goal", getHeader(text, "X-IGNITE-Repository") || "owner/repo", issue);
      thread = { goal, issue, done: [] };
      this.threads.set(threadId, thread);
    }
    return thread;
  }

  private taskOf(goal: DemoGoal, body: Body): DemoTask {
    const id = str(body.task_id);
    const known = goal.tasks.find((t) => t.id === id);
    if (known) return known;
    const base = goal.tasks[0];
    if (!base) throw new Error(`goal ${goal.slug} has no tasks`);
    return { ...base, id: id ?? base.id, title: str(body.title) ?? base.title };
  }
}
