// The compose request (docs/API.md: POST /api/compose), checked field by field so a 400
// names every bad field at once. Pure: the compose form runs the same checks as you type.
import { z } from "zod";
import { NAME_PATTERN } from "@/lib/model";
import { parseBodyYaml } from "@/lib/protocols/bounded-yaml";
import type { ComposeMessage } from "@/lib/protocols/types";

/** The largest YAML body (and request) Mailroom accepts: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_RECIPIENTS = 50;
const DEAD_LETTER = "dead_letter";

/** What a client sends. */
export interface ComposeRequest {
  source?: string;
  from: string;
  to: string[];
  cc?: string[];
  type: string;
  priority?: string;
  body: string;
  threadId?: string;
  inReplyTo?: string;
  repository?: string;
  issue?: string | number;
  createQueues?: boolean;
  /** Send even where no agent may read it (the preview's warnings). */
  confirmWarnings?: boolean;
  dryRun?: boolean;
}

/** A checked request: trimmed, defaults filled ("" for an optional header that is left out). */
export interface ComposeInput extends ComposeMessage {
  source: string | null;
  createQueues: boolean;
  confirmWarnings: boolean;
  dryRun: boolean;
}

/** Field name → why it is wrong (one sentence per field). */
export type FieldErrors = Record<string, string>;

// Python's splitlines() breaks on more than CR and LF; any of these would end a header early.
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function controlName(ch: string): string {
  if (ch === "\r") return "a carriage return (CR)";
  if (ch === "\n") return "a line feed (LF)";
  if (ch === "\0") return "a NUL character";
  return `the control character U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why a header value cannot be written, or null. */
export function headerValueProblem(value: string): string | null {
  const bad = CONTROL.exec(value)?.[0];
  if (bad !== undefined) return `must not contain ${controlName(bad)}: header values are one line`;
  if (LONE_SURROGATE.test(value)) return "contains a broken character (a lone UTF-16 surrogate)";
  return null;
}

/** Why an agent or type name is refused, or null. */
export function nameProblem(value: string): string | null {
  if (value === "") return "is required";
  const header = headerValueProblem(value);
  if (header) return header;
  if (value.includes("/") || value.includes("..")) return `"${value}" must not contain "/" or ".."`;
  if (!NAME_PATTERN.test(value)) {
    return `"${value}" is not a valid name: use 1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit`;
  }
  return null;
}

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

// Line breaks besides LF that the tools' readers break at (Python's universal newlines, PyYAML's
// NEL, U+2028 and U+2029) but the yaml package here does not: the tree checked would not be the one they read.
const FOREIGN_LINE_BREAK = /[\r\u0085\u2028\u2029]/;

/** Why a body's characters cannot be written (shared by compose and Edit & requeue), or null. */
export function bodyTextProblem(body: string): string | null {
  if (body.includes("\0")) return "must not contain NUL characters";
  const lineBreak = FOREIGN_LINE_BREAK.exec(body)?.[0];
  if (lineBreak !== undefined) {
    const name = lineBreak === "\r" ? "CR" : `U+${lineBreak.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    return `must use LF line endings (it contains ${name}, which the IGNITE tools read as a line break)`;
  }
  if (LONE_SURROGATE.test(body)) return "contains a broken character (a lone UTF-16 surrogate)";
  return null;
}

/** Why a body is not YAML (with line and column), or null: read as the detail view reads a body. */
export function yamlBodyError(body: string): string | null {
  return parseBodyYaml(body).error;
}

/** Why a YAML body cannot be sent (with line and column for a YAML error), or null. */
export function bodyProblem(body: string): string | null {
  const bytes = utf8Bytes(body);
  if (bytes > MAX_BODY_BYTES) return `is ${(bytes / MAX_BODY_BYTES).toFixed(2)} MiB; the limit is 1 MiB`;
  return bodyTextProblem(body) ?? yamlBodyError(body);
}

const refined = <T>(schema: z.ZodType<T>, problem: (v: T) => string | null) =>
  schema.superRefine((v, ctx) => {
    const message = problem(v);
    if (message) ctx.addIssue({ code: "custom", message });
  });

const text = (what: string) => z.string({ error: `must be ${what}` });
const name = refined(text("a name"), nameProblem);
const header = (max: number) =>
  refined(text("text"), (v) => headerValueProblem(v) ?? (v.trim().length > max ? `must be at most ${max} characters` : null)).transform((v) => v.trim());

function recipients(list: string[], required: boolean): string | null {
  if (required && list.length === 0) return "at least one recipient is required";
  if (list.length > MAX_RECIPIENTS) return `at most ${MAX_RECIPIENTS} recipients`;
  const problems = list.map((n) => nameProblem(n) ?? (n === DEAD_LETTER ? `"${n}" is the dead-letter queue, not an agent` : null));
  const seen = new Set<string>();
  list.forEach((n, i) => {
    if (seen.has(n)) problems[i] ??= `"${n}" is listed twice`;
    seen.add(n);
  });
  const found = problems.filter((p): p is string => p !== null);
  return found.length ? found.join("; ") : null;
}

const nameList = (required: boolean) => refined(z.array(text("a name"), { error: "must be a list of agent names" }), (l) => recipients(l, required));

/** One schema per field, so every field is checked even when another one fails. */
const FIELDS = {
  source: z.string({ error: "must be a source id" }).min(1, "must not be empty").optional(),
  from: name,
  to: nameList(true),
  cc: nameList(false).optional(),
  type: name,
  priority: refined(text("a name"), (v) => (v === "" ? null : nameProblem(v))).optional(),
  body: refined(text("YAML text"), bodyProblem),
  threadId: header(200).optional(),
  inReplyTo: header(500).optional(),
  repository: header(200).optional(),
  // A number is taken as its decimal text (upstream writes whatever it is given).
  issue: z.preprocess((v) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? String(v) : v), header(50)).optional(),
  createQueues: z.boolean({ error: "must be true or false" }).optional(),
  confirmWarnings: z.boolean({ error: "must be true or false" }).optional(),
  dryRun: z.boolean({ error: "must be true or false" }).optional(),
} as const;

export type ComposeField = keyof typeof FIELDS;
export const COMPOSE_FIELDS = Object.keys(FIELDS) as ComposeField[];

export interface CheckedCompose {
  /** The fields that passed, normalised. */
  valid: Partial<ComposeInput>;
  errors: FieldErrors;
}

/** Check every field of a request body; `valid` holds the ones that passed. */
export function checkCompose(raw: unknown): CheckedCompose {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { valid: {}, errors: { request: "must be a JSON object with from, to, type and body" } };
  }
  const record = raw as Record<string, unknown>;
  const errors: FieldErrors = {};
  const valid: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(FIELDS, key)) errors[key] = "is not a field of a compose request";
  }
  for (const field of COMPOSE_FIELDS) {
    const value = record[field];
    const result = (FIELDS[field] as z.ZodType<unknown>).safeParse(value);
    if (result.success) valid[field] = result.data;
    else errors[field] = value === undefined ? "is required" : [...new Set(result.error.issues.map((i) => i.message))].join("; ");
  }
  return { valid: valid as Partial<ComposeInput>, errors };
}

/** A complete input from a check without errors. */
export function toComposeInput(valid: Partial<ComposeInput>): ComposeInput {
  return {
    source: valid.source ?? null,
    from: valid.from ?? "",
    to: valid.to ?? [],
    cc: valid.cc ?? [],
    type: valid.type ?? "",
    priority: valid.priority || "normal",
    body: valid.body ?? "",
    threadId: valid.threadId ?? "",
    inReplyTo: valid.inReplyTo ?? "",
    repository: valid.repository ?? "",
    issue: valid.issue ?? "",
    createQueues: valid.createQueues ?? false,
    confirmWarnings: valid.confirmWarnings ?? false,
    dryRun: valid.dryRun ?? false,
  };
}

/** `from: …; to: …` in the order of the form, for an error message. */
export function describeFieldErrors(errors: FieldErrors): string {
  const order: string[] = ["request", ...COMPOSE_FIELDS];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.keys(errors)
    .sort((a, b) => rank(a) - rank(b))
    .map((k) => `${k}: ${errors[k]}`)
    .join("; ");
}
