import "server-only";
import { ingestNow } from "@/lib/ingest";
import { getClientConfig, keyAtPath, listSources, recordAction } from "@/lib/journal";
import type { ComposePlan, ComposeTarget } from "@/lib/protocols/types";
import { ApiError } from "@/lib/server/errors";
import {
  checkCompose, describeFieldErrors, MAX_BODY_BYTES, toComposeInput, utf8Bytes, type ComposeInput, type FieldErrors,
} from "./compose-schema";
import { openTarget, pickSource } from "./compose-target";
import { absoluteFor } from "./paths";

// Compose for a protocol with its own compose (IGNITE v3: one file per recipient, see its
// adapter's compose.ts): the request checked field by field, the files planned and written by the
// protocol, and the send journaled here.

/** Requests larger than this are refused before they are read (a 1 MiB body, JSON-escaped). */
export const MAX_REQUEST_BYTES = 2 * MAX_BODY_BYTES + 64 * 1024;

/** A 400 that names every bad field; `fields` lets a form show each error beside its field. */
export class ComposeFieldsError extends ApiError {
  constructor(readonly fields: FieldErrors) {
    super(400, "invalid_fields", `Nothing was written. ${describeFieldErrors(fields)}`);
    this.name = "ComposeFieldsError";
  }
}

export interface ComposedItem {
  /** The journal's key of the new message (null only when ingest is not running). */
  key: string | null;
  path: string;
}
export interface PreviewItem {
  path: string;
  content: string;
  /** The recipient's queue folder does not exist yet and will be created. */
  newQueue: boolean;
  /** Why no agent may read it there (a send needs confirmWarnings), or null. */
  warning: string | null;
  /** What else to know before sending (nothing to confirm). */
  notes?: string[];
}
export type ComposeResult = { dryRun: false; items: ComposedItem[] } | { dryRun: true; items: PreviewItem[] };

/** Validate everything (each bad field named), then plan one file per recipient. */
async function plan(raw: unknown, date: Date): Promise<{ input: ComposeInput; root: string; planned: ComposePlan }> {
  const body = (raw as { body?: unknown } | null)?.body;
  if (typeof body === "string" && utf8Bytes(body) > MAX_BODY_BYTES) {
    throw new ApiError(413, "body_too_large", `body: is larger than 1 MiB (${utf8Bytes(body)} bytes). Nothing was written.`);
  }
  const { valid, errors } = checkCompose(raw);
  let opened: { target: ComposeTarget; root: string } | undefined;
  if (!errors.source) {
    const picked = pickSource(valid.source ?? null, listSources());
    const found = picked.source ? await openTarget(picked.source) : { error: picked.error };
    if (found.target && picked.source) opened = { target: found.target, root: picked.source.root };
    else errors.source = found.error ?? "cannot be written to";
  }
  let missing: string[] = [];
  if (opened && valid.to && !errors.to) {
    const queues = await opened.target.checkRecipients(valid.to, valid.createQueues === true);
    if (queues.problem) errors.to = queues.problem;
    missing = queues.missing;
  }
  if (Object.keys(errors).length > 0 || !opened) throw new ComposeFieldsError(errors);
  const input = toComposeInput(valid);
  return { input, root: opened.root, planned: await opened.target.plan(input, missing, date) };
}

/**
 * POST /api/compose. `origin` says where the request came from, for the message's history.
 * A dry run answers with the files that would be written, without writing.
 */
export async function compose(raw: unknown, origin: string): Promise<ComposeResult> {
  if (getClientConfig().readOnly) {
    throw new ApiError(403, "read_only", "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be sent.");
  }
  const { input, root, planned } = await plan(raw, new Date());
  if (input.dryRun) {
    return { dryRun: true, items: planned.files.map((f) => ({ path: f.path, content: f.content, newQueue: f.newQueue, warning: f.warning })) };
  }
  const unread = planned.files.filter((f) => f.warning !== null);
  if (unread.length > 0 && !input.confirmWarnings) {
    throw new ApiError(409, "unconfirmed_warning", `Nothing was written: ${unread.map((f) => f.warning).join(" ")} Send with "confirmWarnings": true to write it anyway.`);
  }
  const written = await planned.write();
  await ingestNow(written.map((rel) => absoluteFor(root, rel)));
  const items = written.map((rel) => ({ key: keyAtPath(root, rel), path: rel }));
  const reply = input.inReplyTo ? `, in reply to ${input.inReplyTo}` : "";
  for (const item of items) {
    if (item.key) recordAction(item.key, "composed", `Sent from Mailroom (${origin}) as ${item.path}${reply}`);
  }
  return { dryRun: false, items };
}
