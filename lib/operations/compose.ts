import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { ingestNow } from "@/lib/ingest";
import { getClientConfig, keyAtPath, listSources, recordAction } from "@/lib/journal";
import { openIgnite } from "@/lib/protocols/ignite";
import { buildMessage, messageFileName, newMessageId } from "@/lib/protocols/ignite";
import { ApiError } from "@/lib/server/errors";
import {
  checkCompose, describeFieldErrors, MAX_BODY_BYTES, toComposeInput, utf8Bytes, type ComposeInput, type FieldErrors,
} from "./compose-schema";
import { absolute, checkQueues, openTarget, pickSource, queueDirOf, type ComposeTarget } from "./compose-target";
import { createFile, resolveForWrite } from "./fs";

// Compose (docs/protocols/ignite-mime.md "What Mailroom writes"): one file per recipient, in the upstream builder's
// header order, at `<runtime>/queue/<to>/{type}_{usec}.mime`, created atomically with mode 0600.

/** Requests larger than this are refused before they are read (a 1 MiB body, JSON-escaped). */
export const MAX_REQUEST_BYTES = 2 * MAX_BODY_BYTES + 64 * 1024;
const NAME_ATTEMPTS = 5;

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

interface PlannedFile {
  agent: string;
  content: string;
  newQueue: boolean;
  warning: string | null;
}

/** Validate everything (each bad field named), then plan one file per recipient. */
async function plan(raw: unknown, date: Date): Promise<{ input: ComposeInput; target: ComposeTarget; files: PlannedFile[] }> {
  const body = (raw as { body?: unknown } | null)?.body;
  if (typeof body === "string" && utf8Bytes(body) > MAX_BODY_BYTES) {
    throw new ApiError(413, "body_too_large", `body: is larger than 1 MiB (${utf8Bytes(body)} bytes). Nothing was written.`);
  }
  const { valid, errors } = checkCompose(raw);
  let target: ComposeTarget | undefined;
  if (!errors.source) {
    const picked = pickSource(valid.source ?? null, listSources());
    const opened = picked.source ? await openTarget(picked.source) : { error: picked.error };
    if (opened.target) target = opened.target;
    else errors.source = opened.error ?? "cannot be written to";
  }
  let missing: string[] = [];
  if (target && valid.to && !errors.to) {
    const queues = await checkQueues(target, valid.to, valid.createQueues === true);
    if (queues.problem) errors.to = queues.problem;
    missing = queues.missing;
  }
  if (Object.keys(errors).length > 0 || !target) throw new ComposeFieldsError(errors);
  const input = toComposeInput(valid);
  const warnings = (await (await openIgnite(target.root))?.deliveryWarnings?.(input.to)) ?? new Map<string, string>();
  const files = input.to.map((agent) => ({
    agent,
    newQueue: missing.includes(agent),
    warning: warnings.get(agent) ?? null,
    // Every copy names all recipients; each gets its own Message-ID, for it is its own file.
    content: buildMessage({
      from: input.from, to: input.to, cc: input.cc, type: input.type, priority: input.priority,
      threadId: input.threadId, inReplyTo: input.inReplyTo, repository: input.repository, issue: input.issue,
      body: input.body, date, messageId: newMessageId(date, process.pid),
    }),
  }));
  return { input, target, files };
}

/** Sub-millisecond digits for the file name, as `date +%s%6N` has them. */
function microsNow(): number {
  return Math.floor(performance.now() * 1000) % 1000;
}

interface Stamp {
  date: Date;
  micros: number;
}

/** `{type}_{usec}.mime`; copies and retries step the microseconds so names never repeat. */
function fileName(type: string, stamp: Stamp, index: number, attempt = 0): string {
  return messageFileName(type, stamp.date, stamp.micros + index + attempt * 50);
}

async function writeOne(target: ComposeTarget, input: ComposeInput, file: PlannedFile, stamp: Stamp, index: number): Promise<string> {
  if (file.newQueue) {
    const dir = await resolveForWrite(target.root, `${queueDirOf(target, file.agent)}/.keep`);
    await fs.mkdir(path.dirname(dir)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "EEXIST") throw err;
    });
  }
  for (let attempt = 0; ; attempt++) {
    const rel = `${queueDirOf(target, file.agent)}/${fileName(input.type, stamp, index, attempt)}`;
    const abs = await resolveForWrite(target.root, rel);
    try {
      await createFile(abs, file.content, rel);
      return rel;
    } catch (err) {
      // Another writer took this microsecond: take the next free name, never overwrite.
      if (!(err instanceof ApiError && err.code === "target_exists") || attempt + 1 >= NAME_ATTEMPTS) throw err;
    }
  }
}

/**
 * POST /api/compose. `origin` says where the request came from, for the message's history.
 * A dry run answers with the files that would be written, without writing.
 */
export async function compose(raw: unknown, origin: string): Promise<ComposeResult> {
  if (getClientConfig().readOnly) {
    throw new ApiError(403, "read_only", "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be sent.");
  }
  const stamp: Stamp = { date: new Date(), micros: microsNow() };
  const { input, target, files } = await plan(raw, stamp.date);
  if (input.dryRun) {
    return {
      dryRun: true,
      items: files.map((f, i) => ({ path: `${queueDirOf(target, f.agent)}/${fileName(input.type, stamp, i)}`, content: f.content, newQueue: f.newQueue, warning: f.warning })),
    };
  }
  const unread = files.filter((f) => f.warning !== null);
  if (unread.length > 0 && !input.confirmWarnings) {
    throw new ApiError(409, "unconfirmed_warning", `Nothing was written: ${unread.map((f) => f.warning).join(" ")} Send with "confirmWarnings": true to write it anyway.`);
  }
  const written: string[] = [];
  try {
    for (const [i, file] of files.entries()) written.push(await writeOne(target, input, file, stamp, i));
  } catch (err) {
    // All or nothing: take back the copies already written (the monitor polls every 10 s).
    await Promise.all(written.map((rel) => fs.unlink(absolute(target, rel)).catch(() => undefined)));
    throw err;
  }
  await ingestNow(written.map((rel) => absolute(target, rel)));
  const items = written.map((rel) => ({ key: keyAtPath(target.root, rel), path: rel }));
  const reply = input.inReplyTo ? `, in reply to ${input.inReplyTo}` : "";
  for (const item of items) {
    if (item.key) recordAction(item.key, "composed", `Sent from Mailroom (${origin}) as ${item.path}${reply}`);
  }
  return { dryRun: false, items };
}
