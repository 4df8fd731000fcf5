// The write API's shapes (requeue, retry, discard, restore, bulk) and the dead-letter list.
// Pure types and zod schemas: safe to import from client components.
import { z } from "zod";
import { KEY_PATTERN, NAME_PATTERN, type Protocol } from "@/lib/model";
import { actionIdSchema, type ActionDescriptor } from "@/lib/protocols/actions";
import type { DeadLetterFacts } from "@/lib/protocols/types";

export const ACTIONS = ["requeue", "retry", "discard", "restore"] as const;
export type ActionName = (typeof ACTIONS)[number];

/** Most keys one bulk request may name (an explicit list, never a query). */
export const MAX_BULK_KEYS = 500;
/** Largest edited body accepted by Edit & requeue. */
export const MAX_BODY_CHARS = 1024 * 1024;

const queueName = z.string().regex(NAME_PATTERN, "a queue name is a letter or digit, then letters, digits, _ . or - (at most 64)");
/** The path the page showed: the server refuses (409) when the file is no longer there. */
const shownPath = z.string().min(1).max(4096).refine((p) => !p.includes("\0"), "must not contain NUL");

export const requeueInputSchema = z
  .object({
    to: queueName.optional(),
    body: z
      .string()
      .max(MAX_BODY_CHARS, `must be at most ${MAX_BODY_CHARS} characters`)
      .refine((b) => !b.includes("\0"), "must not contain NUL")
      .refine((b) => b.trim() !== "", "must not be empty")
      .optional(),
    path: shownPath.optional(),
  })
  .strict();
export type RequeueInput = z.infer<typeof requeueInputSchema>;

/** POST /api/messages/{key}/actions/{action}: what the action takes (per its descriptor), what the page showed, and `dryRun`. */
export const actionRequestSchema = z
  .object({
    dryRun: z.boolean().default(false),
    path: shownPath.optional(),
    /** The file as the page saw it (`actionCheck.expect` of the message detail). */
    expect: z.object({ size: z.number().int().nonnegative(), ino: z.number().int().nonnegative().optional() }).strict().optional(),
    to: queueName.optional(),
    body: requeueInputSchema.shape.body,
  })
  .strict();
export type ActionRequestInput = z.input<typeof actionRequestSchema>;

export const pathInputSchema = z.object({ path: shownPath.optional() }).strict();
export type PathInput = z.infer<typeof pathInputSchema>;

export const bulkInputSchema = z
  .object({
    /** Any action id (lib/protocols/actions.ts); each key must offer it. */
    action: actionIdSchema,
    keys: z
      .array(z.string().regex(KEY_PATTERN, "a message key is letters, digits, _ and -"))
      .min(1, "name at least one message")
      .max(MAX_BULK_KEYS, `at most ${MAX_BULK_KEYS} messages per request`),
    to: queueName.optional(),
    dryRun: z.boolean(),
  })
  .strict();
export type BulkInput = z.infer<typeof bulkInputSchema>;

/** What a single action answers: the message's key (after the move) and its new path. */
export interface ActionResult {
  key: string;
  path: string;
  /** The file acted on, when the action archived it beside its main move (a requeued dead letter): restorable from there. */
  archived?: { key: string; path: string };
}

export interface BulkItemResult {
  /** The key as given in the request. */
  key: string;
  ok: boolean;
  /** After a real run: where the file is now, and the message's key there. */
  path?: string;
  newKey?: string;
  /** A dry run (and a real run, for the record): what would be / was done. */
  plan?: string;
  error?: { code: string; message: string };
}

export interface BulkResponse {
  results: BulkItemResult[];
}

/** The dead-letters page's two actions, as a letter's protocol offers them (without the original's text, which its page edits). */
export type DeadLetterAction = Pick<ActionDescriptor, "id" | "verb"> & { id: "requeue" | "discard" };

/** A dead letter as the list shows it: its facts as its protocol reads them (DeadLetterFacts), and where it and its original are. */
export interface DeadLetterItem extends DeadLetterFacts {
  key: string;
  source: string;
  /** Whose layout the dead letter sits in (the page says so when there are several). */
  protocol: Protocol;
  /** Requeue and discard as the letter's protocol offers them now; none: the page lists it read-only. */
  actions: DeadLetterAction[];
  path: string;
  /** The key of the message it holds (null when the copy inside names no Message-ID). */
  originalKey: string | null;
  /** Where the original's file is now, when it is back on disk (a requeue that did not finish). */
  originalPath: string | null;
  problems: string[];
}

export interface DeadLettersResponse {
  items: DeadLetterItem[];
  /** The journal's seq the list is exactly as of. */
  seq: number;
}
