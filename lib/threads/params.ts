import "server-only";
import { z } from "zod";
import { KEY_PATTERN } from "@/lib/model";
import { MAX_QUERY_LENGTH } from "@/lib/query";
import { EXPORT_FORMATS } from "./model";

export const threadListParamsSchema = z.object({
  q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit must be a whole number")
    .transform(Number)
    .optional(),
  /** Only the thread that holds this message. */
  key: z.string().regex(KEY_PATTERN, "key is a message key: letters, digits, _ and -").optional(),
});

/** A route's `[id]` segment (lib/threads/ids.ts threadIdSegment): Node's request head holds at most 16 KiB. */
export const threadParamSchema = z.string().min(1, "a thread id is not empty").max(16 * 1024, "a thread address is at most 16 KiB");

export const exportParamsSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }).default("json"),
});
