// The wave-2 compose forms as the browser runs them: the request schema's checks as you type, the
// warnings seen before the server is asked, and templates.
import { describe, expect, it } from "vitest";
import { composeFormOf, protocolComposeSchema } from "./compose-forms";
import { checkValues, optionsOf, requestOf } from "./compose-spec";
import { igniteAdapter } from "./ignite";
import { PRIORITIES, STANDARD_TYPES, templateFor } from "./ignite";

const lists = { agents: ["karo", "ashigaru1", "⫻command/dispatch"], workflows: ["wf_1", "wf_2"] };

describe("the compose forms", () => {
  it("start each protocol with values its own schema takes", () => {
    const values = { "ignite-yaml": { to: "leader" }, shogun: { content: "作業開始せよ" }, workflow: { to: "agent_a" }, kicklang: { receiver: "WePlan" } };
    for (const [protocol, patch] of Object.entries(values)) {
      const spec = composeFormOf(protocol as "shogun")!;
      expect(checkValues(spec, { ...spec.initial({ ...lists, agents: [...lists.agents, "leader"] }), ...patch }), protocol).toEqual({});
    }
  });

  it("answer a shogun task to karo with a report_received, and any other message with its own type", () => {
    const spec = composeFormOf("shogun")!;
    const of = (type: string, from: string | null, agent: string) => ({ type, from, agent }) as Parameters<NonNullable<typeof spec.reply>>[0];
    expect(spec.reply?.(of("task", "karo", "ashigaru2"))).toEqual({ to: "karo", from: "ashigaru2", type: "report_received", content: "" });
    expect(spec.reply?.(of("task_assigned", "karo", "ashigaru2"))).toMatchObject({ to: "karo", type: "task_assigned" });
    expect(spec.reply?.(of("report", null, "ashigaru2"))).toBeNull();
  });

  it("check KickLang content as Space Format as you type, and see the role rule before the server does", () => {
    const spec = composeFormOf("kicklang")!;
    const values = { ...spec.initial(lists), receiver: "WePlan", content: "plain words" };
    expect(checkValues(spec, values)).toEqual({ content: expect.stringMatching(/not a Space Format string/) });
    expect(spec.warning?.({ ...values, sender: "WePlan" })).toMatch(/Only the Orchestrator sends on ⫻command\//);
    expect(spec.warning?.(values)).toBeNull();
    expect(checkValues(spec, { ...values, content: "⫻a/b:c/1", channel: "⫻report/../../x" })).toEqual({ channel: expect.stringMatching(/"\.\." part/) });
  });

  it("name the field for bad one-line values, JSON and YAML", () => {
    expect(checkValues(composeFormOf("shogun")!, { to: "karo", from: "ashi\ngaru", type: "wake_up", content: "x" })).toEqual({ from: expect.stringMatching(/line feed/) });
    expect(checkValues(composeFormOf("workflow")!, { workflow: "wf_1", to: "broadcast", from: "orchestrator", type: "broadcast", payload: "[]" })).toEqual({ payload: expect.stringMatching(/JSON object/) });
    expect(checkValues(composeFormOf("ignite-yaml")!, { from: "user", to: "leader", type: "user_goal", priority: "normal", payload: "a: [" })).toEqual({ payload: expect.stringMatching(/not valid YAML/) });
  });

  it("leave an empty optional field out of the request, and trim one-line fields", () => {
    const spec = composeFormOf("kicklang")!;
    const request = requestOf(spec, { sender: " Orchestrator ", receiver: "WePlan", type: "Info", channel: "⫻report/status", correlationId: "", content: "⫻a/b:c/1\n" });
    expect(request).toEqual({ sender: "Orchestrator", receiver: "WePlan", type: "Info", channel: "⫻report/status", content: "⫻a/b:c/1\n" });
    expect(protocolComposeSchema.safeParse({ protocol: "kicklang", ...request }).success).toBe(true);
  });

  it("fill a workflow payload from its type's template", () => {
    const t = composeFormOf("workflow")!.template!;
    expect(JSON.parse(t.of("checkpoint_request") ?? "")).toMatchObject({ task_id: "task_001" });
    expect(t.of("made_up")).toBeNull();
  });

  it("start IGNITE v2's payload from IGNITE v3's templates and suggest its types and priorities, as the server hands them over", () => {
    const spec = composeFormOf("ignite-yaml")!;
    const words = igniteAdapter.compose?.vocabulary;
    const withWords = { ...lists, agents: ["leader"], words };
    expect(spec.initial(withWords).payload).toBe(templateFor("user_goal"));
    expect(checkValues(spec, spec.initial(withWords))).toEqual({});
    expect(spec.template?.of("task_assignment", withWords)).toBe(templateFor("task_assignment"));
    expect(spec.template?.of("constructor", withWords)).toBeNull();
    expect(spec.template?.of("task_assignment", lists)).toBeNull();
    const field = (name: string) => spec.fields.find((f) => f.name === name)!;
    expect(optionsOf(field("type"), withWords)).toEqual(STANDARD_TYPES.map((t) => t.type));
    expect(optionsOf(field("priority"), withWords)).toEqual(PRIORITIES);
    expect(optionsOf(field("to"), withWords)).toEqual(["leader"]);
  });
});
