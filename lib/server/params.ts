import "server-only";
import { z } from "zod";
import { MAX_LIMIT } from "@/lib/journal/queries";
import { KEY_PATTERN } from "@/lib/model";
import { MAX_QUERY_LENGTH } from "@/lib/query";
import { ApiError } from "./errors";

// Messages name no parameter: parseOr400 puts each issue's parameter before it ("limit: must be …").
const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, max < Number.MAX_SAFE_INTEGER ? `must be a whole number from ${min} to ${max}` : "must be a whole number")
    .transform(Number)
    .refine((n) => n >= min && n <= max && Number.isSafeInteger(n), max < Number.MAX_SAFE_INTEGER ? `must be a whole number from ${min} to ${max}` : `must be at least ${min}`);

export const listParamsSchema = z.object({
  q: z.string().max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
  limit: wholeNumber(1, MAX_LIMIT).optional(),
  cursor: z.string().max(512, "is too long").optional(),
  since: wholeNumber(0).optional(),
});

/** Each parameter's own code, as the journal answers a value it refuses (a search it cannot read is bad_query wherever it is caught). */
export const LIST_PARAM_CODES: Readonly<Record<string, string>> = { q: "bad_query", limit: "bad_limit", cursor: "bad_cursor", since: "bad_since" };

export const keySchema = z.string().regex(KEY_PATTERN, "a message key is letters, digits, _ and -");

/** Parse with zod; a failure becomes a 400 that names the parameter and the reason, its code the first one's in `codes`, else `code`. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown, code = "bad_request", codes: Readonly<Record<string, string>> = {}): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const message = result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
  const first = result.error.issues[0]?.path[0];
  throw new ApiError(400, (typeof first === "string" ? codes[first] : undefined) ?? code, message);
}

/** A URL's parameters, the first of each name (as the pages read `?q=a&q=b`: the API must answer the same search). */
export function searchParamsObject(url: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of new URL(url).searchParams) if (!(name in params)) params[name] = value;
  return params;
}
