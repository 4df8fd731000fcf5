import { describe, expect, it } from "vitest";
import { templateOf, unchangedTemplateWarning } from "./compose-spec";
import type { ComposeVocabulary } from "./types";

const words: ComposeVocabulary = { types: [{ type: "user_goal", description: "a goal" }], priorities: ["normal"], templates: { user_goal: 'goal: "What the team should achieve"\n' } };

describe("unchangedTemplateWarning", () => {
  it("warns while the body is its type's template, whitespace at the ends aside", () => {
    const template = templateOf(words, "user_goal");
    expect(unchangedTemplateWarning("user_goal", 'goal: "What the team should achieve"\n', template)).toMatch(/^The body is the user_goal template unchanged: its values are examples/);
    expect(unchangedTemplateWarning("user_goal", '  goal: "What the team should achieve"  \n\n', template)).not.toBeNull();
  });

  it("is quiet once the body is edited, empty, or its type has no template", () => {
    const template = templateOf(words, "user_goal");
    expect(unchangedTemplateWarning("user_goal", 'goal: "Ship the README"\n', template)).toBeNull();
    expect(unchangedTemplateWarning("user_goal", "", template)).toBeNull();
    expect(unchangedTemplateWarning("note", "anything", templateOf(words, "note"))).toBeNull();
    // A name an object has of its own is no template (templateOf), so it never warns either.
    expect(unchangedTemplateWarning("constructor", "x", templateOf(words, "constructor"))).toBeNull();
  });
});
