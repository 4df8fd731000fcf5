import { z } from "zod";

/**
 * `?q=` of the timeline pages: a single string, trimmed; anything else reads as no query. Kept
 * whatever its length: the parser says what is wrong with it under the box, where cutting it
 * here would show the whole timeline as if nothing had been asked.
 */
export const searchSchema = z.object({
  q: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? "")).trim()),
});

export function parseSearch(raw: Record<string, string | string[] | undefined>): { q: string } {
  const parsed = searchSchema.safeParse(raw);
  return parsed.success ? parsed.data : { q: "" };
}

/** Joins a fixed query part (e.g. `agent:leader`) and the reader's own. */
export function joinQuery(...parts: (string | undefined)[]): string {
  return parts
    .map((p) => p?.trim() ?? "")
    .filter(Boolean)
    .join(" ");
}

/** A `field:value` search term, quoted when the value has spaces or quotes. */
export function queryTerm(field: string, value: string): string {
  return /[\s"]/.test(value) ? `${field}:"${value.replace(/"/g, "")}"` : `${field}:${value}`;
}
