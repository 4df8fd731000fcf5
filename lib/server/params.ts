import "server-only";
import { z } from "zod";
import { KEY_PATTERN } from "@/lib/model";
import { MAX_QUERY_LENGTH } from "@/lib/query";
import { ApiError } from "./errors";

const wholeNumber = (name: string, min: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && Number.isSafeInteger(n), `${name} must be at least ${min}`);

export const listParamsSchema = z.object({
  q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
  limit: wholeNumber("limit", 1).optional(),
  cursor: z.string().max(512, "cursor is too long").optional(),
  since: wholeNumber("since", 0).optional(),
});

export const keySchema = z.string().regex(KEY_PATTERN, "a message key is letters, digits, _ and -");

/** Parse with zod; a failure becomes a 400 that names the parameter and the reason. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown, code = "bad_request"): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const message = result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
  throw new ApiError(400, code, message);
}

/** A URL's parameters, the first of each name (as the pages read `?q=a&q=b`: the API must answer the same search). */
export function searchParamsObject(url: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of new URL(url).searchParams) if (!(name in params)) params[name] = value;
  return params;
}
