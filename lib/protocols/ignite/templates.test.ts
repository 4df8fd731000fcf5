import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { draftToRequest, replyDraft } from "@/lib/client/compose-draft";
import { checkCompose } from "@/lib/operations/compose-schema";
import { fixturePath } from "@/lib/testing/fixtures";
import { parseReference } from "./reference";
import { newThreadId, planReply } from "./reply";
import { STANDARD_TYPES, templateFor } from "./templates";
import { parseYamlBody } from "./yaml-body";

const AGENTS = ["architect", "coordinator", "evaluator", "ignitian_1", "ignitian_2", "ignitian_3", "innovator", "leader", "strategist"];

function original(file: string) {
  const ref = parseReference(fs.readFileSync(fixturePath("ignite", "workspace", ".ignite", "queue", file), "utf8"));
  const s = (k: string) => (ref[k] as string) || null;
  return {
    source: "ws-ignite", messageId: s("message_id"), from: s("from"), to: ref.to as string[], type: s("type"),
    threadId: s("thread_id"), repository: s("repository"), issue: s("issue"), data: parseYamlBody(ref.body as string).data,
  };
}

describe("templates", () => {
  it.each(STANDARD_TYPES.map((t) => t.type))("%s has a template that is a valid YAML mapping", (type) => {
    const body = templateFor(type, { task_id: "task_7", title: "見出し", repository: "owner/repo", issue: "42" });
    const { data, error } = parseYamlBody(body);
    expect(error).toBeNull();
    expect(data).toBeTypeOf("object");
    expect(body.endsWith("\n")).toBe(true);
  });

  it.each([
    ["task_assignment", "ignitian_1/processed/task_assignment_1795135150230771.mime"],
    ["task_completed", "coordinator/processed/task_completed_1795135978661209.mime"],
    ["evaluation_request", "evaluator/processed/evaluation_request_1795136092377001.mime"],
    ["improvement_request", "innovator/improvement_request_1795136391230419.mime"],
    ["user_goal", "leader/processed/user_goal_1795134600214337.mime"],
  ])("gives a %s the fields the fixture's has", (type, file) => {
    const keys = (body: string) => Object.keys(parseYamlBody(body).data as object);
    const fixture = parseReference(fs.readFileSync(fixturePath("ignite", "workspace", ".ignite", "queue", file), "utf8")).body as string;
    expect(keys(templateFor(type))).toEqual(keys(fixture));
  });

  it("takes seeds", () => {
    expect(parseYamlBody(templateFor("task_assignment", { task_id: "task_7" })).data).toMatchObject({ task_id: "task_7" });
  });

  it("is empty for a type it does not know (and for prototype names)", () => {
    expect(templateFor("my_own_type")).toBe("");
    expect(templateFor("constructor")).toBe("");
  });
});

describe("planReply", () => {
  it("answers an evaluation_request as the evaluator, to the coordinator, in its thread", () => {
    const m = original("evaluator/processed/evaluation_request_1795136092377001.mime");
    const plan = planReply(m, AGENTS);
    expect(plan).toMatchObject({
      from: "evaluator", to: ["coordinator"], type: "evaluation_result", threadId: "thr_readme_42",
      inReplyTo: "<179513609241.40031.74602887591896938@ignite.local>", repository: "owner/repo", issue: "42", notes: [],
    });
    expect(parseYamlBody(plan.body).data).toMatchObject({ task_id: "task_001", title: "README骨組み作成", repository: "owner/repo" });
  });

  it.each([
    ["ignitian_1/processed/task_assignment_1795135150230771.mime", "task_completed", "ignitian_1", ["coordinator"]],
    ["strategist/processed/strategy_request_1795134672840216.mime", "strategy_response", "strategist", ["leader"]],
    ["coordinator/processed/task_list_1795135004512009.mime", "task_assignment", "coordinator", ["strategist"]],
    ["innovator/improvement_request_1795136391230419.mime", "improvement_completed", "innovator", ["evaluator"]],
  ])("answers %s with %s", (file, type, from, to) => {
    expect(planReply(original(file), AGENTS)).toMatchObject({ type, from, to });
  });

  it("answers an escalation with a decision for the leader, from the operator, in a new thread", () => {
    const plan = planReply(original("leader/escalation_1795136385.mime"), AGENTS, "thr_0badcafe");
    expect(plan).toMatchObject({ from: "user", to: ["leader"], type: "decision", priority: "high", threadId: "thr_0badcafe" });
    expect(plan.notes.join(" ")).toMatch(/queue_monitor has no queue folder/);
    expect(plan.notes.join(" ")).toMatch(/thr_0badcafe is a new one/);
    expect(parseYamlBody(plan.body).data).toMatchObject({ decision: "retry", dlq_path: "/home/user/readme-demo/.ignite/queue/dead_letter/" });
  });

  it("keeps the type when there is no usual answer, and says so", () => {
    const plan = planReply(original("leader/progress_update_1795136392801166.mime"), AGENTS);
    expect(plan).toMatchObject({ type: "progress_update", from: "leader", to: ["coordinator"] });
    expect(plan.notes.join(" ")).toMatch(/no usual reply to progress_update/);
  });

  it("makes thread ids like thr_1a2b3c4d", () => {
    expect(newThreadId()).toMatch(/^thr_[0-9a-f]{8}$/);
  });

  it("gives a draft whose request passes every check", () => {
    const plan = planReply(original("evaluator/processed/evaluation_request_1795136092377001.mime"), AGENTS);
    const request = draftToRequest(replyDraft(plan, AGENTS));
    expect(checkCompose(request).errors).toEqual({});
    expect(request).toMatchObject({ source: "ws-ignite", to: ["coordinator"], issue: "42" });
  });
});

describe("draftToRequest", () => {
  it("joins picked and typed recipients, trims, and leaves empty fields out", () => {
    const draft = { ...replyDraft(planReply(original("leader/escalation_1795136385.mime"), AGENTS), AGENTS), otherTo: " ignitian_9, leader ,", cc: "", threadId: "  " };
    const request = draftToRequest(draft);
    expect(request.to).toEqual(["leader", "ignitian_9"]);
    expect(request.threadId).toBeUndefined();
    expect("cc" in request).toBe(false);
  });
});
