import { describe, expect, it } from "vitest";
import { checkCompose } from "@/lib/operations/compose-schema";
import type { ComposeVocabulary } from "@/lib/protocols/types";
import { draftToRequest, newDraft, stillToDo } from "./compose-draft";

describe("stillToDo", () => {
  it("names each field with a problem by its label, in the form's order (Type is above To)", () => {
    const draft = { ...newDraft("ws"), from: "", type: "user goal", body: "a: [" };
    expect(stillToDo(checkCompose(draftToRequest(draft)).errors)).toEqual([
      expect.stringMatching(/^From: /),
      expect.stringMatching(/^Type: /),
      "To: at least one recipient is required",
      expect.stringMatching(/^Body \(YAML\): /),
    ]);
  });

  it("keeps a problem that is no field of the form, last, by its own name", () => {
    expect(stillToDo({ request: "must be a JSON object", to: "at least one recipient is required" })).toEqual([
      "To: at least one recipient is required",
      "request: must be a JSON object",
    ]);
  });

  it("is empty for a complete draft", () => {
    expect(stillToDo(checkCompose(draftToRequest({ ...newDraft("ws"), to: ["leader"] })).errors)).toEqual([]);
  });
});

describe("newDraft", () => {
  const words: ComposeVocabulary = { types: [], priorities: [], templates: { user_goal: "goal: x\n" } };

  it("starts the body from the default type's template among the words the server handed over", () => {
    expect(newDraft("ws", words)).toMatchObject({ source: "ws", type: "user_goal", body: "goal: x\n" });
  });

  it("starts empty without them, or when they have no template for the type", () => {
    expect(newDraft("ws").body).toBe("");
    expect(newDraft("ws", { ...words, templates: {} }).body).toBe("");
  });
});
