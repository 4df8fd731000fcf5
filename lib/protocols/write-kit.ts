import "server-only";
// What every wave-2 writer shares (DESIGN "Safety rules"): zod field checks whose errors name the
// field, the plan a dry run returns, and the 409 for a file that changed since the caller read it.
import fs from "node:fs/promises";
import { z } from "zod";
import { isRecord } from "@/lib/protocols/entry-kit";
import { fieldErrorsOf } from "@/lib/protocols/fields";
import { readJsonStream, type JsonObject } from "@/lib/protocols/json-stream";
import { readForWrite } from "@/lib/operations/read-text";
import { ApiError } from "@/lib/server/api-error";

export { bodyField, lineField, nameField } from "@/lib/protocols/fields";

/** What a dry run returns and `run` carries out: the file, the bytes Mailroom would write there, and what to warn about. */
export interface WritePlan<Op> {
  /** Root-relative path of the file written or appended to. */
  path: string;
  /** The whole new file (a replace or a new file), or the one line appended. */
  bytes: string;
  warnings: string[];
  /** The checked operation, carried out again by `run` (under the protocol's locks where it has them). */
  op: Op;
}

/** What the caller saw of a file: any of these that differ now make the write a 409. */
export const expectSchema = z
  .object({ size: z.number().int().nonnegative(), mtimeMs: z.number().nonnegative(), ino: z.number().int().nonnegative() })
  .partial()
  .strict();
export type Expect = z.infer<typeof expectSchema>;

/** Check `input` against `schema`; a 400 naming every bad field (`to: is required; body: …`). */
export function checkInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const text = Object.entries(fieldErrorsOf(result.error)).map(([field, message]) => `${field}: ${message}`).join("; ");
  throw new ApiError(400, "bad_request", text);
}

/** A 409 unless the file is still what the caller saw (`expect` unset: nothing to compare). */
export async function assertUnchanged(abs: string, display: string, expect: Expect | undefined): Promise<void> {
  if (!expect || Object.keys(expect).length === 0) return;
  const st = await fs.stat(abs).catch(() => null);
  if (!st) throw new ApiError(409, "source_gone", `${display} is no longer there; nothing was changed`);
  const changed = (["size", "mtimeMs", "ino"] as const).filter((k) => expect[k] !== undefined && expect[k] !== st[k]);
  if (changed.length) {
    throw new ApiError(409, "changed", `${display} changed since it was read (${changed.join(", ")} differ); reload it and try again. Nothing was changed.`);
  }
}

/** The JSON objects of a stream file, to find an entry a write refers to (a missing file holds none). */
export async function objectsOf(root: string, relPath: string): Promise<JsonObject[]> {
  const bytes = (await readForWrite(root, relPath)) ?? new Uint8Array(0);
  // A read stops after PARSE_LIMITS.values values; the next goes on from where it stopped.
  const objects: JsonObject[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const { items, consumed } = readJsonStream(bytes.subarray(offset), offset);
    for (const i of items) if (i.ok && isRecord(i.value)) objects.push(i.value);
    if (consumed === offset) break; // only a value still being written is left
    offset = consumed;
  }
  return objects;
}
