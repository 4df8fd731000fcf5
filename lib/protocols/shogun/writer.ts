import "server-only";
// shogun's own actions (DESIGN "Many protocols, one core"): send a message into an agent's inbox as
// inbox_write.sh does, and mark messages read or unread in place, each as one locked replace of
// the inbox (lock.ts) that can never lose a message another writer added meanwhile: the change is
// applied again, under the locks, to whatever the inbox holds then.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { resolveForWrite } from "@/lib/operations/fs";
import { readForWrite } from "@/lib/operations/read-text";
import { makeFolders } from "@/lib/operations/held-dir";
import { replaceFile } from "@/lib/operations/replace";
import { assertUnchanged, checkInput, expectSchema, lineField, nameField, type Expect, type WritePlan } from "@/lib/protocols/write-kit";
import { ApiError } from "@/lib/server/api-error";
import { refusesSelf, sendFields, shogunWarning } from "./client";
import { inboxOf } from "./detect";
import { applyOverflow, dumpInbox, loadInbox, localTimestamp, messageId, type Inbox, type Mapping } from "./inbox-format";
import { withInboxLock } from "./lock";

export const sendSchema = z.object({ ...sendFields, expect: expectSchema.optional() }).strict().refine(refusesSelf.check, refusesSelf.issue);
export const markSchema = z
  .object({ agent: nameField, ids: z.array(lineField).min(1, "name at least one message id").max(500), read: z.boolean(), expect: expectSchema.optional() })
  .strict();
export type SendInput = z.input<typeof sendSchema>;
export type MarkInput = z.input<typeof markSchema>;

export type ShogunOp =
  | { action: "send"; agent: string; message: Mapping; expect?: Expect }
  | { action: "mark"; agent: string; ids: string[]; read: boolean; expect?: Expect };

export interface ShogunResult {
  path: string;
  /** The new message's id, or the ids marked. */
  ids: string[];
}

function inboxRel(agent: string): string {
  return `queue/inbox/${agent}.yaml`;
}

/** The inbox file, through `queue/inbox` (the one link followed); created with its folder for a send. */
async function inboxAbs(root: string, agent: string, create: boolean): Promise<string> {
  const queueDir = await resolveForWrite(root, "queue/inbox");
  const found = (await inboxOf(path.dirname(queueDir)))?.dir;
  if (!found && create) makeFolders(queueDir, "queue/inbox");
  const dir = found ?? (create ? queueDir : null);
  if (!dir) throw new ApiError(409, "source_gone", "queue/inbox is not there; nothing was changed");
  const file = path.join(dir, `${agent}.yaml`);
  const st = await fs.lstat(file).catch(() => null);
  if (st && !st.isFile()) throw new ApiError(400, "not_a_file", `${inboxRel(agent)} is not a plain file; Mailroom never writes through links`);
  return file;
}

/** How long an inbox that reads empty is given to be written again before it counts as empty. */
const EMPTY_INBOX_RECHECK_MS = 50;

async function currentInbox(abs: string, display: string, mustExist: boolean): Promise<Inbox> {
  // Inside the inbox folder (queue/inbox may lead out of the root: the one link followed).
  const readNow = async () => {
    const bytes = await readForWrite(path.dirname(abs), path.basename(abs));
    if (bytes === null && mustExist) throw new ApiError(409, "source_gone", `${display} is no longer there; nothing was changed`);
    return bytes?.toString("utf8") ?? null;
  };
  let text = await readNow();
  // slim_yaml rewrites an inbox in place without the lock: caught between its truncate and its
  // write, a full inbox reads empty, and a send would replace it by the one new message.
  if (text !== null && text.trim() === "") {
    await new Promise((r) => setTimeout(r, EMPTY_INBOX_RECHECK_MS));
    text = await readNow();
  }
  text ??= "";
  const inbox = loadInbox(text);
  if ("problem" in inbox) {
    const why = inbox.lasting ? "Mailroom rewrites only an inbox whose every item is a message (it keeps every item): fix or remove that first." : "An agent may be writing it: try again.";
    throw new ApiError(409, "unreadable", `${display} cannot be rewritten: ${inbox.problem} ${why} Nothing was changed.`);
  }
  return inbox;
}

function setRead(m: Mapping, read: boolean): Mapping {
  // The later variant keeps `status: pending | seen | done` instead of `read`.
  // Marking read leaves a `done` message done (seen would undo its work's end); unread makes it pending.
  if (typeof m.read !== "boolean" && typeof m.status === "string") return { ...m, status: read ? (m.status === "done" ? "done" : "seen") : "pending" };
  return { ...m, read };
}

/** The change applied to the inbox as it is now; a 409 when it no longer fits (an id to mark is gone). */
export function apply(op: ShogunOp, inbox: Inbox): Inbox {
  const display = inboxRel(op.agent);
  if (op.action === "send") {
    if (inbox.messages.some((m) => m.id === op.message.id)) throw new ApiError(409, "already_sent", `${display} already holds ${String(op.message.id)}; it was not sent twice`);
    return { ...inbox, messages: applyOverflow([...inbox.messages, op.message]) };
  }
  const gone = op.ids.filter((id) => !inbox.messages.some((m) => m.id === id));
  if (gone.length) {
    throw new ApiError(409, "entry_gone", `${display} no longer holds ${gone.join(", ")} (an agent's writer trimmed or removed it since it was read); nothing was changed`);
  }
  const ids = new Set(op.ids);
  return { ...inbox, messages: inbox.messages.map((m) => (typeof m.id === "string" && ids.has(m.id) ? setRead(m, op.read) : m)) };
}

async function plan(root: string, op: ShogunOp, warnings: string[]): Promise<WritePlan<ShogunOp>> {
  const display = inboxRel(op.agent);
  const abs = await inboxAbs(root, op.agent, false).catch((err: unknown) => (op.action === "send" ? null : Promise.reject(err)));
  const inbox = abs ? await currentInbox(abs, display, op.action === "mark") : { rest: {}, messages: [] };
  return { path: display, bytes: dumpInbox(apply(op, inbox)), warnings, op };
}

/** A message for `to`'s inbox, as inbox_write.sh writes it (keys sorted on output). */
export async function planSend(root: string, input: unknown, now = new Date()): Promise<WritePlan<ShogunOp>> {
  const v = checkInput(sendSchema, input);
  const id = messageId(now, randomBytes(4).toString("hex"));
  const message: Mapping = { content: v.content, from: v.from, id, read: false, timestamp: localTimestamp(now), type: v.type };
  const warning = shogunWarning(v.to);
  const warnings = warning ? [warning] : [];
  return plan(root, { action: "send", agent: v.to, message, expect: v.expect }, warnings);
}

/** Set `read` on each of `ids` in `agent`'s inbox, leaving every other message where and as it is. */
export async function planMark(root: string, input: unknown): Promise<WritePlan<ShogunOp>> {
  const v = checkInput(markSchema, input);
  return plan(root, { action: "mark", agent: v.agent, ids: [...new Set(v.ids)], read: v.read, expect: v.expect }, []);
}

/** Carry out a plan under the inbox locks, on the inbox as it is then. */
export async function run(root: string, p: WritePlan<ShogunOp>): Promise<ShogunResult> {
  const { op } = p;
  const display = inboxRel(op.agent);
  const abs = await inboxAbs(root, op.agent, op.action === "send");
  await withInboxLock(abs, display, async () => {
    await assertUnchanged(abs, display, op.expect);
    const next = apply(op, await currentInbox(abs, display, op.action === "mark"));
    await replaceFile(abs, dumpInbox(next));
  });
  return { path: display, ids: op.action === "send" ? [String(op.message.id)] : op.ids };
}
