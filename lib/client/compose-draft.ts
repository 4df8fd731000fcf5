// The compose form's state and the request it sends. Pure: the page builds the first draft on
// the server, the form edits it in the browser.
import type { ComposeField, ComposeRequest } from "@/lib/operations/compose-schema";
import { templateOf } from "@/lib/protocols/compose-spec";
import type { ComposeVocabulary, ReplyPlan } from "@/lib/protocols/types";

export interface ComposeDraft {
  source: string;
  from: string;
  /** Recipients picked from the workspace's agents. */
  to: string[];
  /** More recipients, typed (comma-separated). */
  otherTo: string;
  cc: string;
  type: string;
  priority: string;
  threadId: string;
  inReplyTo: string;
  repository: string;
  issue: string;
  body: string;
  createQueues: boolean;
}

export const DEFAULT_TYPE = "user_goal";

/** "a, b,,c " → ["a", "b", "c"]. */
export function splitNames(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}

/** A new message; its body is the default type's template among the protocol's words (from the server). */
export function newDraft(source: string, words?: ComposeVocabulary): ComposeDraft {
  return {
    source, from: "user", to: [], otherTo: "", cc: "", type: DEFAULT_TYPE, priority: "normal",
    threadId: "", inReplyTo: "", repository: "", issue: "", body: templateOf(words, DEFAULT_TYPE) ?? "", createQueues: false,
  };
}

export function replyDraft(plan: ReplyPlan, agents: readonly string[]): ComposeDraft {
  return {
    source: plan.source, from: plan.from,
    to: plan.to.filter((a) => agents.includes(a)),
    otherTo: plan.to.filter((a) => !agents.includes(a)).join(", "),
    cc: "", type: plan.type, priority: plan.priority, threadId: plan.threadId, inReplyTo: plan.inReplyTo,
    repository: plan.repository, issue: plan.issue, body: plan.body, createQueues: false,
  };
}

/** Every recipient, picked then typed, without repeats. */
export function recipientsOf(draft: ComposeDraft): string[] {
  return [...new Set([...draft.to, ...splitNames(draft.otherTo)])];
}

/** The request for a draft: trimmed, with empty optional fields left out. */
export function draftToRequest(d: ComposeDraft): ComposeRequest {
  const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());
  const cc = splitNames(d.cc);
  return {
    ...(d.source ? { source: d.source } : {}),
    from: d.from.trim(),
    to: recipientsOf(d),
    ...(cc.length ? { cc } : {}),
    type: d.type.trim(),
    priority: optional(d.priority),
    body: d.body,
    threadId: optional(d.threadId),
    inReplyTo: optional(d.inReplyTo),
    repository: optional(d.repository),
    issue: optional(d.issue),
    ...(d.createQueues ? { createQueues: true } : {}),
  };
}

/** Each field of a compose request as the form shows it: its label, top to bottom. */
const FORM_FIELDS: readonly (readonly [ComposeField, string])[] = [
  ["source", "Workspace"], ["from", "From"], ["type", "Type"], ["priority", "Priority"], ["to", "To"],
  ["createQueues", "Create a queue folder"], ["cc", "Cc"], ["threadId", "Thread id"], ["inReplyTo", "In-Reply-To"],
  ["repository", "Repository"], ["issue", "Issue"], ["body", "Body (YAML)"], ["dryRun", "Dry run"],
];

/** The fields with a problem, in the form's order (top to bottom); keys that are no field come last. */
export function fieldsInFormOrder(errors: Readonly<Record<string, string>>): string[] {
  const known: string[] = FORM_FIELDS.map(([f]) => f);
  return [...known.filter((f) => errors[f]), ...Object.keys(errors).filter((k) => !known.includes(k))];
}

/** "To: at least one recipient is required" for each problem, by the form's labels, in the form's order. */
export function stillToDo(errors: Readonly<Record<string, string>>): string[] {
  const label = new Map<string, string>(FORM_FIELDS);
  return fieldsInFormOrder(errors).map((f) => `${label.get(f) ?? f}: ${errors[f]}`);
}
