import { describe, expect, it } from "vitest";
import { checkCompose } from "@/lib/operations/compose-schema";
import { draftToRequest, newDraft, stillToDo } from "./compose-draft";

describe("stillToDo", () => {
  it("names each field with a problem by its label, in the form's order", () => {
    const draft = { ...newDraft("ws"), from: "", type: "user goal" };
    expect(stillToDo(checkCompose(draftToRequest(draft)).errors)).toEqual([
      expect.stringMatching(/^From: /),
      "To: at least one recipient is required",
      expect.stringMatching(/^Type: /),
    ]);
  });

  it("is empty for a complete draft", () => {
    expect(stillToDo(checkCompose(draftToRequest({ ...newDraft("ws"), to: ["leader"] })).errors)).toEqual([]);
  });
});
