// The field checks every wave-2 compose form and writer share: zod schemas whose messages name
// what is wrong. Pure: the compose form runs them as you type, the writers again before writing.
import { z } from "zod";
import { headerValueProblem, MAX_BODY_BYTES, nameProblem, utf8Bytes } from "@/lib/operations/compose-schema";

const refine = <T extends z.ZodType<string>>(schema: T, problem: (v: string) => string | null) =>
  schema.superRefine((v, ctx) => {
    const message = problem(v);
    if (message) ctx.addIssue({ code: "custom", message });
  });

/** A name that becomes part of a path (an agent, a type): `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`. */
export const nameField = refine(z.string({ error: "must be a name" }), nameProblem);
/** One line of text: no CR, LF, NUL or other control character. */
export const lineField = refine(z.string({ error: "must be text" }), (v) => (v === "" ? "is required" : headerValueProblem(v)));
/** Free text of at most 1 MiB (UTF-8), without NUL. */
export const bodyField = refine(z.string({ error: "must be text" }), (v) => {
  const bytes = utf8Bytes(v);
  if (bytes > MAX_BODY_BYTES) return `is ${(bytes / MAX_BODY_BYTES).toFixed(2)} MiB; the limit is 1 MiB`;
  return v.includes("\0") ? "must not contain NUL characters" : null;
});

/** Field name → why it is wrong (one sentence per field), from a failed parse. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    // A key the schema does not know is named as the field it is, not as the request.
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) byField.set([...issue.path, key].join("."), ["is not a field of this request"]);
      continue;
    }
    const field = issue.path.length ? issue.path.join(".") : "request";
    const message = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
    byField.set(field, [...(byField.get(field) ?? []), message]);
  }
  return Object.fromEntries([...byField].map(([field, messages]) => [field, [...new Set(messages)].join("; ")]));
}
