// A KickLang team: the Orchestrator dispatches a task on ⫻command/dispatch, the role answers
// "Accepted" on ⫻report/status, may ask Kick La Metta on ⫻query/context, files its artifact on
// ⫻report/artifact and ends with "Completed", each reply carrying the dispatch's id as its
// correlation id. Every envelope goes through KickLang's own writer (one O_APPEND line per
// envelope). One loop in four, a role dispatches work itself (the role rule, broken and flagged by
// SystemMonitor on ⫻alert/violation); another answers "Accepted" without its correlation id.
import { planCompose, planReply, run } from "../writer";
import { pick } from "@/lib/demo/random";
import { TimedTeam, type TeamOptions } from "@/lib/demo/timed-team";

export const KICKLANG_ROLES = ["WePlan", "PromptEngineer", "RoleDefiner"] as const;
const ORCHESTRATOR = "Orchestrator";
const ORACLE = "Kick La Metta";
const DISPATCH = "⫻command/dispatch";

/** Steps of one loop at speed 1 (ms). */
export const KICKLANG_TIMING = {
  acceptMs: [800, 2_500] as [number, number],
  queryMs: [1_000, 3_000] as [number, number],
  workMs: [3_000, 8_000] as [number, number],
  completeMs: [500, 1_500] as [number, number],
};

const TASKS = [
  { context: "Draft the iteration plan for the monitoring module.", artifact: "initial/iteration_plan.md", question: "Which modules already have a KickLang schema?", answer: "monitoring, dispatch (see initial/kicklang_schema.md)" },
  { context: "Refine the SystemMonitor prompt.", artifact: "initial/refined_prompts.md", question: "Which alerts does SystemMonitor raise today?", answer: "⫻alert/error and ⫻alert/violation only" },
  { context: "Define the reviewer role and its channels.", artifact: "roles/reviewer.md", question: "Who may send on ⫻command/dispatch?", answer: "The Orchestrator only" },
  { context: "Write the Space Format cheat sheet.", artifact: "docs/space_format.md", question: "Is the index part of a place required?", answer: "Yes: ⫻name/type:place/index" },
  { context: "Summarize the last sprint's alerts.", artifact: "reports/alerts_sprint.md", question: "Where are the sprint's alerts kept?", answer: "⫻alert/error since Monday" },
] as const;

/** "⫻report/status:task_107/002" then the lines: the Space Format string KickLang requires. */
const space = (channel: string, place: string, index: number, ...lines: string[]) =>
  [`${channel}:${place}/${String(index).padStart(3, "0")}`, ...lines].join("\n");

export class KicklangTeam extends TimedTeam {
  protected readonly pacing = { pauseMs: 2_000, maxLoopMs: 60_000, firstMs: 1_000 };
  private dispatched = 0;

  constructor(options: TeamOptions) {
    super(options);
  }

  protected init(): void {
    // The channel files appear with their first envelope (the writer creates them).
  }

  protected async playLoop(n: number): Promise<void> {
    const role = KICKLANG_ROLES[n % KICKLANG_ROLES.length] ?? "WePlan";
    const task = TASKS[n % TASKS.length] ?? TASKS[0];
    const taskId = `task_${String(100 + n).padStart(3, "0")}`;
    const dispatch = await this.send({
      sender: ORCHESTRATOR, receiver: role, type: "Command", channel: DISPATCH,
      content: space(DISPATCH, "task", ++this.dispatched, `Task ID: ${taskId}`, `Context: ${task.context}`),
    });
    const reply = (channel: string, index: number, line: string) =>
      this.reply(role, dispatch, channel, space(channel, taskId, index, line));

    let at = this.delay(KICKLANG_TIMING.acceptMs);
    this.schedule(at, () =>
      n % 4 === 3
        // The missing correlation: an answer that does not say which dispatch it answers.
        ? this.send({ sender: role, receiver: ORCHESTRATOR, type: "Info", channel: "⫻report/status", content: space("⫻report/status", taskId, 1, "Accepted") })
        : reply("⫻report/status", 1, "Accepted"));
    if (n % 4 === 1) {
      at += this.delay(KICKLANG_TIMING.queryMs);
      this.schedule(at, () => this.breakRoleRule(role, taskId));
    }
    if (this.random() < 0.6) {
      at += this.delay(KICKLANG_TIMING.queryMs);
      this.schedule(at, async () => {
        const query = await this.send({ sender: role, receiver: ORACLE, type: "Query", channel: "⫻query/context", content: space("⫻query/context", taskId, 1, task.question) });
        this.schedule(this.delay(KICKLANG_TIMING.queryMs), () => this.reply(ORACLE, query, "⫻query/context", space("⫻query/context", taskId, 2, task.answer)));
      });
    }
    at += this.delay(KICKLANG_TIMING.workMs);
    this.schedule(at, () => reply("⫻report/artifact", 1, task.artifact));
    at += this.delay(KICKLANG_TIMING.completeMs);
    this.schedule(at, () => reply("⫻report/status", 2, "Completed"));
  }

  /** A role dispatching work itself: the writer sends it only when told to, and records that it was. */
  private async breakRoleRule(role: string, taskId: string): Promise<void> {
    const helper = pick(this.random, KICKLANG_ROLES.filter((r) => r !== role));
    const sub = `${taskId}b`;
    await this.send({
      sender: role, receiver: helper, type: "Command", channel: DISPATCH, confirmRoleRule: true,
      content: space(DISPATCH, "task", ++this.dispatched, `Task ID: ${sub}`, `Context: Help with ${taskId}.`),
    });
    this.schedule(this.delay(KICKLANG_TIMING.completeMs), () =>
      this.send({
        sender: "SystemMonitor", receiver: "Broadcast", type: "Alert", channel: "⫻alert/violation",
        content: space("⫻alert/violation", "monitor", this.dispatched, `${role} sent a Command on ${DISPATCH}; only the ${ORCHESTRATOR} dispatches.`),
      }));
  }

  private async send(input: Record<string, unknown>): Promise<string> {
    const plan = await planCompose(input, this.clock());
    return (await run(this.root, plan)).id;
  }

  private async reply(sender: string, requestId: string, channel: string, content: string): Promise<string> {
    const requestChannel = channel === "⫻query/context" ? channel : DISPATCH;
    const plan = await planReply(this.root, { sender, requestChannel, requestId, channel, content }, this.clock());
    return (await run(this.root, plan)).id;
  }
}
