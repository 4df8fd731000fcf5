import "server-only";
// IGNITE v2 (YAML) actions: compose and reply (a new `{type}_{16 digits}.yaml` with the top-level
// keys the v2 tools write), requeue (as is or edited, to its queue or another), retry now, discard
// and restore; lifecycle keys change as the monitor changes them (lifecycle.ts). Every new file is
// written atomically without overwrite, every move a link and a checked removal (lib/operations/fs.ts).
import { createHash, randomInt } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { createFile, moveFile, moveRewritten, resolveForWrite, takeBack } from "@/lib/operations/fs";
import { notUtf8, readBytesInsideRoot } from "@/lib/operations/read-text";
import { parseYamlFile } from "@/lib/protocols/bounded-yaml";
import { isRecord, str } from "@/lib/protocols/entry-kit";
import { assertNoLiveDeadLetter, assertNotRequeuedBefore, assertRequeuedCopyGone, isoWithOffset, retryBackoffSeconds } from "@/lib/protocols/ignite";
import { assertUnchanged, bodyField, checkInput, expectSchema, lineField, nameField, type Expect, type WritePlan } from "@/lib/protocols/write-kit";
import { ApiError } from "@/lib/server/api-error";
import { PRIORITY } from "./client";
import { markedRequeued, markRetrying, requeued, requeuedTo, retryCountOf, scalar, unmarked } from "./lifecycle";
import { ARCHIVE_PARTS, DEAD_LETTER, placeIgniteYaml } from "./paths";

const common = { type: nameField, priority: PRIORITY.default("normal"), payload: bodyField.default(""), expect: expectSchema.optional() };
export const composeSchema = z.object({ ...common, from: nameField, to: nameField }).strict();
export const replySchema = z.object({ ...common, path: lineField, from: nameField.optional(), to: nameField.optional() }).strict();
export const moveSchema = z.object({ path: lineField, expect: expectSchema.optional() }).strict();
export const requeueSchema = z.object({ path: lineField, to: nameField.optional(), body: bodyField.optional(), expect: expectSchema.optional() }).strict();

export type IgniteYamlAction = "compose" | "reply" | "requeue" | "retry" | "discard" | "restore";
export interface IgniteYamlOp {
  action: IgniteYamlAction;
  /** The file this acts on, and a hash of the bytes planned from: `run` refuses if they changed. */
  source: { path: string; sha256: string } | null;
  /** The new file (compose, reply, a dead letter's original), or where the source moves. */
  target: string;
  /** The target's bytes; null moves the source unchanged. */
  content: string | null;
  /** A requeued dead letter moves here once its original is written. */
  archive: string | null;
  expect?: Expect;
}
type Plan = WritePlan<IgniteYamlOp>;

const ARCHIVE = `${ARCHIVE_PARTS.join("/")}/`;
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The last stamp named (µs), and the time it was named at (see messageName). */
let last = { micros: 0, ms: 0 };

/**
 * `{type}_{16-digit unix microseconds}.yaml` (`date +%s%6N`; a Date holds milliseconds, the rest is
 * random). The stem is the message's id, so two named in one millisecond never share one: drawn at
 * random alone, one pair of a type in a millisecond in a thousand did (the v2 demo's team writes a
 * tick's messages at one instant), and the second write failed as "already exists", or two queues
 * held one id.
 */
export function messageName(type: string, now: Date): string {
  const ms = now.getTime();
  let micros = ms * 1000 + randomInt(1000);
  // While time does not go back, stamps only grow (a thousand in a millisecond run on into the next).
  if (ms >= last.ms && micros <= last.micros) micros = last.micros + 1;
  last = { micros, ms };
  return `${type}_${micros}.yaml`;
}

/** A payload (YAML mapping text) nested under `payload:`; a 400 naming `field` when it is not a mapping. */
function payloadBlock(payload: string, field: string): string {
  if (payload.trim() === "") return "payload: {}\n";
  const parsed = parseYamlFile(payload, field);
  if (parsed.problem) throw new ApiError(400, "bad_request", `${field}: ${parsed.problem.message}`);
  if (!isRecord(parsed.data)) throw new ApiError(400, "bad_request", `${field}: must be a YAML mapping (key: value lines)`);
  const lines = payload.replace(/\n+$/, "").split("\n").map((l) => (l === "" ? l : `  ${l}`));
  return `payload:\n${lines.join("\n")}\n`;
}

/** A v2 message as the tools' heredocs write it; checked to read back as what was asked. */
export function messageText(m: { type: string; from: string; to: string; priority: string; payload: string }, now: Date, field = "payload"): string {
  const text = `type: ${scalar(m.type)}\nfrom: ${scalar(m.from)}\nto: ${scalar(m.to)}\ntimestamp: "${isoWithOffset(now)}"\npriority: ${m.priority}\n${payloadBlock(m.payload, field)}`;
  const back = parseYamlFile(text).data;
  const want = parseYamlFile(m.payload).data ?? {};
  if (!isRecord(back) || JSON.stringify(back.payload) !== JSON.stringify(want) || back.type !== m.type || back.to !== m.to) {
    throw new ApiError(400, "bad_request", `${field}: does not nest under payload: as written (a document marker or odd indentation?)`);
  }
  return text;
}

async function queueExists(root: string, agent: string, field: string): Promise<void> {
  const st = await fs.lstat(await resolveForWrite(root, `queue/${agent}`)).catch(() => null);
  if (st?.isSymbolicLink()) throw new ApiError(400, "bad_request", `${field}: queue/${agent} is a link; Mailroom never writes through links`);
  if (!st?.isDirectory() || agent === DEAD_LETTER) throw new ApiError(400, "bad_request", `${field}: there is no queue/${agent}/ to write to`);
}

/** A file an action reads: its hash (of its bytes), and its text, which only a rewrite needs (`textOf`). */
interface Source {
  rel: string;
  sha256: string;
  bytes: Buffer;
  text: string | null;
}

async function readSource(root: string, rel: string): Promise<Source> {
  const { bytes, text } = await readBytesInsideRoot(root, rel);
  return { rel, sha256: sha(bytes), bytes, text };
}

/** A source's text, for a rewrite: a 409 when it is not UTF-8 (a move needs none). */
function textOf(src: Source): string {
  if (src.text === null) throw notUtf8(src.rel);
  return src.text;
}

export async function planCompose(root: string, input: unknown, now = new Date()): Promise<Plan> {
  const v = checkInput(composeSchema, input);
  await queueExists(root, v.to, "to");
  const target = `queue/${v.to}/${messageName(v.type, now)}`;
  const content = messageText(v, now);
  return { path: target, bytes: content, warnings: [], op: { action: "compose", source: null, target, content, archive: null, expect: v.expect } };
}

/** To the original's sender, from its recipient; the original's `task_id` carried over unless the payload names one. */
export async function planReply(root: string, input: unknown, now = new Date()): Promise<Plan> {
  const v = checkInput(replySchema, input);
  const parsed = parseYamlFile(textOf(await readSource(root, v.path))).data;
  const original = isRecord(parsed) ? parsed : {};
  const to = v.to ?? str(original.from);
  const from = v.from ?? str(original.to);
  if (!to || !from) throw new ApiError(400, "bad_request", `${to ? "from" : "to"}: the original names none; give one`);
  const taskId = isRecord(original.payload) ? str(original.payload.task_id) : null;
  const own = parseYamlFile(v.payload).data;
  const payload = taskId && !(isRecord(own) && "task_id" in own) ? `task_id: ${scalar(taskId)}\n${v.payload}` : v.payload;
  return planCompose(root, { type: v.type, priority: v.priority, payload, from, to, expect: v.expect }, now);
}

function placed(rel: string) {
  const place = placeIgniteYaml(rel);
  if (!place) throw new ApiError(400, "bad_request", `path: ${rel} is not an IGNITE v2 message file`);
  return place;
}

/** A dead letter's original back into a queue (the dead letter is archived), or a processed message back to its queue. */
export async function planRequeue(root: string, input: unknown, now = new Date()): Promise<Plan> {
  const v = checkInput(requeueSchema, input);
  const place = placed(v.path);
  const src = await readSource(root, v.path);
  const at = isoWithOffset(now);
  if (v.body !== undefined) messageTextCheck(v.body);
  if (place.folder === DEAD_LETTER) {
    const letter = parseYamlFile(textOf(src)).data;
    // Not str(): it flattens line breaks.
    const originalText = isRecord(letter) && typeof letter.original_message === "string" ? letter.original_message : null;
    if (!originalText || !isRecord(letter)) throw new ApiError(409, "no_original", `${v.path} holds no readable original_message; nothing to requeue`);
    const original = parseYamlFile(originalText).data;
    const to = v.to ?? (isRecord(original) ? str(original.to) : null);
    if (!to) throw new ApiError(400, "bad_request", "to: the original message names no queue; choose one");
    await queueExists(root, to, "to");
    const name = requeuedName(str(letter.original_file), v.path, isRecord(original) ? str(original.type) : null, now);
    const target = `queue/${to}/${name}`;
    await assertNotRequeuedBefore(root, v.path, target);
    const content = requeued(v.body ?? originalText, v.path, at);
    return { path: target, bytes: content, warnings: [], op: { action: "requeue", source: { path: v.path, sha256: src.sha256 }, target, content, archive: `${ARCHIVE}${v.path}`, expect: v.expect } };
  }
  if (place.folder !== "processed") throw new ApiError(409, "not_applicable", `Requeue works on a dead letter or a message in processed/; ${v.path} is in ${place.folder}/. Nothing was changed.`);
  const to = v.to ?? place.agent;
  await queueExists(root, to, "to");
  const target = `queue/${to}/${path.posix.basename(v.path)}`;
  const content = requeued(v.body ?? textOf(src), v.path, at);
  return { path: target, bytes: content, warnings: [], op: { action: "requeue", source: { path: v.path, sha256: src.sha256 }, target, content, archive: null, expect: v.expect } };
}

/**
 * The name a dead letter's original goes back under: its original_file when that is a message
 * name the monitor takes (a `.yaml` that is no dotfile), else the dead letter's own name without
 * `_dlq_…`, else a new one. An original_file of "unknown", ".hidden.yaml" or "task_1.mime" put the
 * message where neither the monitor nor Mailroom reads it, and archived its dead letter.
 */
function requeuedName(originalFile: string | null, letterPath: string, type: string | null, now: Date): string {
  const taken = (name: string) => /^[^./][^/]*\.yaml$/.test(name) && placeIgniteYaml(`queue/x/${name}`) !== null;
  const own = originalFile === null ? null : path.posix.basename(originalFile);
  if (own !== null && taken(own)) return own;
  const fromLetter = path.posix.basename(letterPath).replace(/_dlq_\d+\.yaml$/, ".yaml");
  if (taken(fromLetter) && fromLetter !== path.posix.basename(letterPath)) return fromLetter;
  // The type comes from the file too: only a plain word names a file.
  return messageName(type !== null && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(type) ? type : "message", now);
}

function messageTextCheck(body: string): void {
  const parsed = parseYamlFile(body, "body");
  if (parsed.problem) throw new ApiError(400, "bad_request", `body: ${parsed.problem.message}`);
  if (!isRecord(parsed.data) || !str(parsed.data.type)) throw new ApiError(400, "bad_request", "body: must be a YAML mapping with at least a type");
}

/** The monitor's retry, now: the processed message back to its queue as retry n+1 with a backoff. */
export async function planRetry(root: string, input: unknown, now = new Date()): Promise<Plan> {
  const v = checkInput(moveSchema, input);
  const place = placed(v.path);
  if (place.folder !== "processed") throw new ApiError(409, "not_applicable", `Retry now works on a message in processed/; ${v.path} is in ${place.folder}/. Nothing was changed.`);
  const src = await readSource(root, v.path);
  const text = textOf(src);
  const delay = retryBackoffSeconds(retryCountOf(text));
  const content = markRetrying(text, isoWithOffset(now), isoWithOffset(new Date(now.getTime() + delay * 1000)));
  const target = `queue/${place.agent}/${path.posix.basename(v.path)}`;
  return { path: target, bytes: content, warnings: [], op: { action: "retry", source: { path: v.path, sha256: src.sha256 }, target, content, archive: null, expect: v.expect } };
}

/** Discard: the file, unchanged, to `archive/mailroom/<same path>`; restore: back from there (see unmarked). */
export async function planDiscard(root: string, input: unknown, restore = false): Promise<Plan> {
  const v = checkInput(moveSchema, input);
  const archived = v.path.startsWith(ARCHIVE);
  if (archived !== restore) throw new ApiError(409, "not_applicable", restore ? `${v.path} is not in the archive; nothing to restore` : `${v.path} is already discarded`);
  placed(v.path);
  const src = await readSource(root, v.path);
  const target = restore ? v.path.slice(ARCHIVE.length) : `${ARCHIVE}${v.path}`;
  if (restore) await assertNoLiveDeadLetter(root, `queue/${DEAD_LETTER}`, target, v.path);
  // A dead letter a requeue archived goes back without the mark the requeue added, and only once its
  // requeued message is gone from where the requeue put it (else it would be both queued and dead).
  // Not UTF-8 (a body cut mid-character): moved as it is, with no mark to look for.
  const content = restore && src.text !== null ? unmarked(src.text) : null;
  if (content !== null) await assertRequeuedCopyGone(root, v.path, requeuedTo(src.text ?? ""));
  return { path: target, bytes: content ?? src.text ?? src.bytes.toString("utf8"), warnings: [], op: { action: restore ? "restore" : "discard", source: { path: v.path, sha256: src.sha256 }, target, content, archive: null, expect: v.expect } };
}

export async function run(root: string, p: Plan): Promise<{ path: string }> {
  const { op } = p;
  const targetAbs = await resolveForWrite(root, op.target);
  if (!op.source) {
    await createFile(targetAbs, op.content ?? "", op.target);
    return { path: op.target };
  }
  const sourceAbs = await resolveForWrite(root, op.source.path);
  await assertUnchanged(sourceAbs, op.source.path, op.expect);
  const src = await readSource(root, op.source.path);
  if (src.sha256 !== op.source.sha256) {
    throw new ApiError(409, "changed", `${op.source.path} changed since this was planned (the monitor may have moved on); reload it. Nothing was changed.`);
  }
  if (op.content === null) await moveFile(sourceAbs, targetAbs, op.target);
  else if (op.action === "restore") await moveRewritten(sourceAbs, targetAbs, op.content, op.target);
  // A retry (or a requeue from processed/) is the same message rewritten: it keeps the file's mode, as the monitor's mv does.
  else if (!op.archive) await moveRewritten(sourceAbs, targetAbs, op.content, op.target);
  else {
    const made = await createFile(targetAbs, op.content, op.target);
    try {
      await moveRewritten(sourceAbs, await resolveForWrite(root, op.archive), markedRequeued(textOf(src), op.target), op.archive);
    } catch (err) {
      await takeBack(targetAbs, made).catch(() => undefined); // someone took the dead letter first: the message stays once
      throw err;
    }
  }
  return { path: op.target };
}
