// YAML message bodies laid out like the agents' own (see the fixture): double-quoted strings,
// two-space indents, block literals for multi-line text.
import type { DemoGoal, DemoTask } from "./goals";

/** A YAML double-quoted scalar (JSON strings are valid ones; non-ASCII stays raw). */
const q = (text: string) => JSON.stringify(text);
const list = (items: string[], indent = "  ") => items.map((item) => `${indent}- ${q(item)}`);
const block = (lines: string[], indent = "  ") => lines.map((line) => `${indent}${line}`);
const body = (lines: string[], trailingNewline = true) => lines.join("\n") + (trailingNewline ? "\n" : "");

export function userGoalBody(goal: DemoGoal, issue: number): string {
  return body([`goal: ${q(goal.goal)}`, `context: ${q(`Issue #${issue}: ${goal.context}`)}`], false);
}

export function strategyRequestBody(goal: DemoGoal, issue: number): string {
  return body([
    `goal: ${q(goal.goal)}`,
    "requirements:", ...list(goal.requirements),
    `context: ${q(`${goal.repository} の Issue #${issue}。${goal.context}`)}`,
  ]);
}

export function strategyResponseBody(goal: DemoGoal): string {
  const [first, ...rest] = goal.tasks;
  const phases = [
    ...(first ? ["    - phase: 1", `      name: ${q(first.title)}`, `      description: ${q(first.description)}`] : []),
    "    - phase: 2", `      name: ${q("並行作業")}`, `      description: ${q(rest.map((t) => t.title).join(" / "))}`,
  ];
  return body([
    `goal: ${q(goal.goal)}`,
    "strategy:", `  approach: ${q(goal.approach)}`, "  phases:", ...phases,
    `task_count: ${goal.tasks.length}`,
    `estimated_duration: ${goal.tasks.reduce((sum, t) => sum + t.estimate, 0)}`,
    "risks:", ...list(goal.risks),
    "recommendations:", ...list(["成果物は実際に動かして確認する", "Keep each task small enough to review"]),
  ]);
}

export function taskListBody(goal: DemoGoal): string {
  const tasks = goal.tasks.flatMap((t, i) => [
    `  - task_id: ${q(t.id)}`, `    title: ${q(t.title)}`, `    description: ${q(t.description)}`,
    `    phase: ${i === 0 ? 1 : 2}`, `    priority: ${i === 0 ? "high" : "normal"}`,
    `    estimated_time: ${t.estimate}`, "    dependencies: []",
    "    skills_required:", ...list(t.skills, "      "), "    deliverables:", ...list(t.deliverables, "      "),
  ]);
  return body([
    `goal: ${q(goal.goal)}`,
    `strategy_summary: ${q(`${goal.approach}。${goal.tasks.length}タスクに分割`)}`,
    "tasks:", ...tasks,
  ]);
}

export function taskAssignmentBody(t: DemoTask): string {
  return body([
    `task_id: ${q(t.id)}`, `title: ${q(t.title)}`, `description: ${q(t.description)}`,
    "instructions: |", ...block(t.instructions.map((line, i) => `${i + 1}. ${line}`)),
    "deliverables:", ...list(t.deliverables), "skills_required:", ...list(t.skills),
    `estimated_time: ${t.estimate}`,
  ]);
}

export function taskCompletedBody(t: DemoTask, executionTime: number): string {
  const deliverables = t.deliverables.flatMap((file) => [
    `  - file: ${q(file)}`, `    description: ${q(t.description)}`, `    location: ${q(`./${file}`)}`,
  ]);
  return body([
    `task_id: ${q(t.id)}`, `title: ${q(t.title)}`, "status: success", "deliverables:", ...deliverables,
    `execution_time: ${executionTime}`, `notes: ${q("レビューをお願いします / ready for review")}`,
  ]);
}

export function evaluationRequestBody(t: DemoTask, goal: DemoGoal): string {
  const deliverables = t.deliverables.flatMap((file) => [`  - file: ${q(file)}`, `    location: ${q(`./${file}`)}`]);
  return body([
    `task_id: ${q(t.id)}`, `title: ${q(t.title)}`, "deliverables:", ...deliverables,
    "requirements:", ...list([t.description]),
    "criteria:", ...list([`${goal.goal} に沿っていること`, "No regressions in existing checks"]),
  ]);
}

type Finding = DemoGoal["finding"];

export function evaluationResultBody(goal: DemoGoal, t: DemoTask, score: number, finding: Finding | null): string {
  const issues = finding
    ? ["issues_found:", '  - severity: "minor"', `    description: ${q(finding.description)}`,
        `    location: ${q(finding.location)}`, `    recommendation: ${q(finding.recommendation)}`]
    : ["issues_found: []"];
  return body([
    `repository: ${q(goal.repository)}`, `task_id: ${q(t.id)}`, `title: ${q(t.title)}`,
    `overall_status: ${q("pass")}`, `score: ${score}`,
    "checks_performed:",
    `  - check: ${q("要件の充足")}`, `    status: ${q("pass")}`, `    details: ${q(t.description)}`,
    `  - check: ${q("lint / tests")}`, `    status: ${q(finding ? "warning" : "pass")}`,
    `    details: ${q(finding ? finding.description : "All checks passed")}`,
    ...issues,
    "recommendations:", ...list([finding ? "軽微な指摘は後続で対応する" : "このまま取り込んで問題なし"]),
    `next_action: ${q("approve")}`,
  ]);
}

export function improvementRequestBody(t: DemoTask, finding: Finding): string {
  return body([
    `task_id: ${q(t.id)}`, `target: ${q(t.deliverables[0] ?? t.title)}`, "issues:",
    `  - issue: ${q(finding.description)}`, `    severity: ${q("minor")}`,
    `    location: ${q(finding.location)}`, `    suggested_fix: ${q(finding.recommendation)}`,
  ]);
}

export interface Progress {
  total: number;
  done: string[];
}

export function progressUpdateBody(goal: DemoGoal, issue: number, p: Progress): string {
  const completed = p.done.length;
  const percent = p.total > 0 ? Math.round((completed / p.total) * 100) : 0;
  const remaining = goal.tasks.filter((t) => !p.done.includes(t.id)).map((t) => t.id);
  const summary = [
    ...p.done.map((id) => `${id} 完了。`),
    ...(remaining.length ? [`${remaining.join(", ")} は担当者から応答待ち。`] : ["全タスク完了、評価待ち。"]),
  ];
  return body([
    `repository: ${q(goal.repository)}`, `issue: ${issue}`,
    `stage: ${completed >= p.total ? "review" : "implementation"}`, `percent: ${percent}`,
    `message: ${q(`${completed}/${p.total} tasks done`)}`,
    `total_tasks: ${p.total}`, `completed: ${completed}`, `in_progress: ${p.total - completed}`, "pending: 0",
    "summary: |", ...block(summary),
  ]);
}
