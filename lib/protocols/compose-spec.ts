// What a protocol's compose form is made of, so one form renders every protocol's fields from
// data (lib/protocols/compose-forms.ts gathers them). Pure: safe for client code.
import type { z } from "zod";
import type { MessageDetail, Protocol } from "@/lib/model";
import { fieldErrorsOf } from "./fields";
import type { ComposeVocabulary } from "./types";

export type ComposeValues = Record<string, string>;

/**
 * What a source offers the form's suggestions, from the server: its agents (or channels), its
 * workflows, and the words its protocol writes with (IGNITE v2's are IGNITE v3's types,
 * priorities and templates), so no other protocol's code reaches the browser.
 */
export interface SourceLists {
  agents: readonly string[];
  workflows: readonly string[];
  words?: ComposeVocabulary;
}

/** A list a field suggests from its source's lists. */
export type SourceList = "agents" | "workflows" | "types" | "priorities";

export interface ComposeFieldSpec {
  name: string;
  label: string;
  /** `line`: one line of text; `text`: the body, many lines. */
  kind: "line" | "text";
  /** Suggestions: fixed words, or one of the source's lists. */
  options?: readonly string[] | SourceList;
  hint?: string;
  placeholder?: string;
  /** Left out of the request when empty. */
  optional?: boolean;
}

export interface ComposeFormSpec {
  protocol: Exclude<Protocol, "ignite">;
  /** What Send writes, in a few words (beside the button). */
  sendNote: string;
  fields: readonly ComposeFieldSpec[];
  /** The body a type starts with (a template, maybe from the source's words), or null for none. */
  template?: { typeField: string; bodyField: string; of: (type: string, lists?: SourceLists) => string | null };
  /** A new message's values for a source with these lists. */
  initial(lists: SourceLists): ComposeValues;
  /** What a reply's prefill took from the message (said above the form). */
  replyNote: string;
  /** The protocol's own answer to a message, or null when it cannot be answered from here. */
  reply(original: MessageDetail): ComposeValues | null;
  /** A warning that must be confirmed before sending, seen as you type (the server says the same). */
  warning?(values: ComposeValues): string | null;
  /** The request (with `protocol`), as the server parses it too. */
  schema: z.ZodType;
}

/** The body `type` starts with among these words, or null (a name such as "constructor" is no template). */
export function templateOf(words: ComposeVocabulary | undefined, type: string): string | null {
  return words && Object.hasOwn(words.templates, type) ? (words.templates[type] ?? null) : null;
}

/** A field's suggestions for a source with these lists. */
export function optionsOf(f: ComposeFieldSpec, lists: SourceLists): readonly string[] | undefined {
  if (f.options === "types") return lists.words?.types.map((t) => t.type) ?? [];
  if (f.options === "priorities") return lists.words?.priorities ?? [];
  return typeof f.options === "string" ? lists[f.options] : f.options;
}

/** The request's fields for these values: one-line fields trimmed, empty optional ones left out. */
export function requestOf(spec: ComposeFormSpec, values: ComposeValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of spec.fields) {
    const value = values[f.name] ?? "";
    const v = f.kind === "line" ? value.trim() : value;
    if (!(f.optional && v === "")) out[f.name] = v;
  }
  return out;
}

/** Field name → what is wrong, for these values (the schema the server parses the request with). */
export function checkValues(spec: ComposeFormSpec, values: ComposeValues): Record<string, string> {
  const parsed = spec.schema.safeParse({ protocol: spec.protocol, ...requestOf(spec, values) });
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
}

/**
 * A warning to confirm when a body is its type's template as it was filled in: a template's values
 * are examples ("task_001", "What the team should achieve"), and agents act on what they read.
 */
export function unchangedTemplateWarning(type: string, body: string, template: string | null): string | null {
  if (template === null || body.trim() === "" || body.trim() !== template.trim()) return null;
  return `The body is the ${type} template unchanged: its values are examples for you to replace, and the agent will act on them as written.`;
}
