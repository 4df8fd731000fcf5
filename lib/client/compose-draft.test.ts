import { describe, expect, it } from "vitest";
import { checkCompose } from "@/lib/operations/compose-schema";
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
