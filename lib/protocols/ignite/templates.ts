// Starting bodies for the compose form: one YAML template per standard IGNITE message type, with
// the fields the protocol's message specs and the fixture files show for it. Pure.

export interface MessageTypeInfo {
  type: string;
  /** What it is for, and who usually sends it to whom. */
  description: string;
}

/** The protocol's standard types, plus `decision` (Mailroom's answer to an escalation, see reply.ts). */
export const STANDARD_TYPES: readonly MessageTypeInfo[] = [
  { type: "user_goal", description: "a goal for the team (user → leader)" },
  { type: "strategy_request", description: "ask for a strategy (leader → strategist)" },
  { type: "strategy_response", description: "the proposed strategy (strategist → leader)" },
  { type: "task_list", description: "tasks to distribute (strategist → coordinator)" },
  { type: "task_assignment", description: "one task for an ignitian (coordinator → ignitian_N)" },
  { type: "task_completed", description: "a task's result (ignitian_N → coordinator)" },
  { type: "evaluation_request", description: "ask for a review (coordinator → evaluator)" },
  { type: "evaluation_result", description: "a review's verdict (evaluator → leader)" },
  { type: "improvement_request", description: "fixes to make (evaluator → innovator)" },
  { type: "improvement_suggestion", description: "a proposed improvement (innovator → leader)" },
  { type: "improvement_completed", description: "fixes made (innovator → leader)" },
  { type: "progress_update", description: "where the work stands (coordinator → leader)" },
  { type: "architecture_request", description: "a design question (leader → architect)" },
  { type: "architecture_response", description: "a design answer (architect → leader)" },
  { type: "escalation", description: "something needs a decision (→ leader)" },
  { type: "decision", description: "an operator's decision on an escalation (user → leader)" },
  { type: "github_event", description: "an issue or PR event (github_watcher → leader)" },
  { type: "github_task", description: "work requested on GitHub (→ leader or coordinator)" },
];

export const PRIORITIES = ["low", "normal", "high", "critical"] as const;

/** Values a template starts from (taken from the message being answered, when there is one). */
export interface TemplateSeed {
  task_id?: string;
  title?: string;
  goal?: string;
  description?: string;
  repository?: string;
  issue?: string;
  dlq_path?: string;
}

/** A YAML double-quoted scalar (a JSON string is one; non-ASCII stays as it is). */
const q = (text: string) => JSON.stringify(text);
const issueNumber = (issue: string | undefined) => (issue && /^\d+$/.test(issue) ? issue : "0");

type Template = (s: TemplateSeed) => string[];

const TEMPLATES: Record<string, Template> = {
  user_goal: (s) => [`goal: ${q(s.goal ?? "What the team should achieve")}`, `context: ${q("Background, links and constraints")}`],
  strategy_request: (s) => [
    `goal: ${q(s.goal ?? "What the team should achieve")}`, "requirements:", `  - ${q("First requirement")}`, `context: ${q("Background")}`,
  ],
  strategy_response: (s) => [
    `goal: ${q(s.goal ?? "What the team should achieve")}`, "strategy:", `  approach: ${q("How to get there")}`, "  phases:",
    "    - phase: 1", `      name: ${q("First phase")}`, `      description: ${q("What happens in it")}`,
    "task_count: 1", "estimated_duration: 600", "risks:", `  - ${q("A risk")}`, "recommendations:", `  - ${q("A recommendation")}`,
  ],
  task_list: (s) => [
    `goal: ${q(s.goal ?? "What the team should achieve")}`, `strategy_summary: ${q("The strategy in one line")}`, "tasks:",
    `  - task_id: ${q(s.task_id ?? "task_001")}`, `    title: ${q(s.title ?? "Task title")}`, `    description: ${q("What to do")}`,
    "    phase: 1", "    priority: normal", "    estimated_time: 600", "    dependencies: []",
    "    skills_required:", `      - ${q("markdown")}`, "    deliverables:", `      - ${q("README.md")}`,
  ],
  task_assignment: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, `title: ${q(s.title ?? "Task title")}`, `description: ${q(s.description ?? "What to do")}`,
    "instructions: |", "  1. First step", "  2. Second step", "deliverables:", `  - ${q("README.md")}`,
    "skills_required:", `  - ${q("markdown")}`, "estimated_time: 600",
  ],
  task_completed: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, `title: ${q(s.title ?? "Task title")}`, "status: success", "deliverables:",
    `  - file: ${q("README.md")}`, `    description: ${q("What was made")}`, `    location: ${q("./README.md")}`,
    "execution_time: 600", `notes: ${q("Anything the reviewer should know")}`,
  ],
  evaluation_request: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, `title: ${q(s.title ?? "Task title")}`, "deliverables:",
    `  - file: ${q("README.md")}`, `    location: ${q("./README.md")}`, "requirements:", `  - ${q("A requirement")}`,
    "criteria:", `  - ${q("A criterion")}`,
  ],
  evaluation_result: (s) => [
    ...(s.repository ? [`repository: ${q(s.repository)}`] : []),
    `task_id: ${q(s.task_id ?? "task_001")}`, `title: ${q(s.title ?? "Task title")}`,
    `overall_status: ${q("pass")}  # pass, pass_with_notes, fail`, "score: 90", "checks_performed:",
    `  - check: ${q("Requirements met")}`, `    status: ${q("pass")}`, `    details: ${q("What was checked")}`,
    "issues_found: []", "recommendations:", `  - ${q("A recommendation")}`, `next_action: ${q("approve")}  # approve, request_revision, reject`,
  ],
  improvement_request: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, `target: ${q("README.md")}`, "issues:", `  - issue: ${q("What is wrong")}`,
    `    severity: ${q("minor")}`, `    location: ${q("README.md:1")}`, `    suggested_fix: ${q("How to fix it")}`,
  ],
  improvement_suggestion: (s) => [
    `title: ${q(s.title ?? "Improvement title")}`, `category: ${q("quality")}  # performance, quality, process, architecture`,
    "current_situation:", `  description: ${q("How it is now")}`, "proposed_improvement:", `  description: ${q("What to change")}`,
    "  benefits:", `    - ${q("A benefit")}`, `priority: ${q("medium")}`, `estimated_effort: ${q("1 hour")}`,
  ],
  improvement_completed: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, "improvements_made:", `  - description: ${q("What was fixed")}`, `    file: ${q("README.md")}`,
    `notes: ${q("Anything else")}`,
  ],
  progress_update: (s) => [
    ...(s.repository ? [`repository: ${q(s.repository)}`, `issue: ${issueNumber(s.issue)}`] : []),
    "total_tasks: 3", "completed: 1", "in_progress: 2", "pending: 0", "summary: |", "  Where the work stands.",
  ],
  architecture_request: (s) => [
    `question: ${q("The design question")}`, "context: |", "  What is known so far.", "options:", `  - ${q("Option A")}`, `  - ${q("Option B")}`,
    `deadline: ${q("today")}`, ...(s.goal ? [`goal: ${q(s.goal)}`] : []),
  ],
  architecture_response: (s) => [
    `goal: ${q(s.goal ?? "The design question")}`, "proposed_architecture:", "  rationale: |", "    Why this design.",
    "recommendations:", `  - ${q("A recommendation")}`, "risks:", `  - ${q("A risk")}`,
  ],
  escalation: (s) => [
    `task_id: ${q(s.task_id ?? "task_001")}`, `title: ${q(s.title ?? "Task title")}`, `original_assignee: ${q("ignitian_1")}`,
    `failure_reason: ${q("Why it needs a decision")}`, `recommended_action: ${q("manual_review")}`, `notes: ${q("")}`,
  ],
  decision: (s) => [
    `task_id: ${q(s.task_id ?? "unknown")}`, `decision: ${q("retry")}  # retry, reassign, cancel, manual_fix`,
    `reason: ${q("Why")}`, "instructions: |", "  What the leader should do next.",
    ...(s.dlq_path ? [`dlq_path: ${q(s.dlq_path)}`] : []),
  ],
  github_event: (s) => [
    "event_type: issue_created  # issue_created, issue_comment, pr_created, pr_comment",
    `issue_number: ${issueNumber(s.issue)}`, `issue_title: ${q(s.title ?? "Issue title")}`, "author: someone", "author_type: User",
    "body: |", "  The issue text.", `url: ${q(`https://github.com/${s.repository ?? "owner/repo"}/issues/${issueNumber(s.issue)}`)}`,
  ],
  github_task: (s) => [
    "trigger: implement  # implement, review, explain", `repository: ${s.repository ?? "owner/repo"}`, `issue_number: ${issueNumber(s.issue)}`,
    `issue_title: ${q(s.title ?? "Issue title")}`, "issue_body: |", "  What is asked.", "requested_by: someone", `branch_prefix: ${q("ignite/")}`,
  ],
};

/** The starting body for a type ("" for a type without a template). Ends with a newline. */
export function templateFor(type: string, seed: TemplateSeed = {}): string {
  const template = Object.hasOwn(TEMPLATES, type) ? TEMPLATES[type] : undefined;
  return template ? template(seed).join("\n") + "\n" : "";
}

export function hasTemplate(type: string): boolean {
  return Object.hasOwn(TEMPLATES, type);
}

/** Every type with a template. */
export function templateNames(): string[] {
  return Object.keys(TEMPLATES);
}
