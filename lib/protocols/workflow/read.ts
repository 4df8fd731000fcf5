// Reads the appended part of a workflow stream into entries: channel messages, ack records (both
// shapes) and log records. Heartbeats and agents.json give no entries (see health.ts). Pure.
import type { YamlValue } from "@/lib/model";
import type { Entry, FileRead } from "@/lib/protocols/entries";
import { addMs, isoToUtc, isRecord, makeEntry, str } from "@/lib/protocols/entry-kit";
import { readStreamEntries, type JsonObject } from "@/lib/protocols/json-stream";
import { placeWorkflow, type WorkflowPlace } from "./paths";

export interface ReadOptions {
  /** Where `bytes` start in the file: the previous read's `consumed` (0 for a whole file). */
  offset?: number;
  /** Time an ack is due after its message (the tools' rule: 5 s). */
  ackDueMs?: number;
}

export const ACK_DUE_MS = 5_000;
/** Types the tools send with `requires_ack: true`, for a message that leaves the flag out. */
const ACKED_TYPES = new Set(["task_assign", "checkpoint_request", "abort"]);

type Span = { start: number; end: number };

/** A thread per task: task ids repeat in every workflow, so the workflow is part of the key. */
export function threadOf(workflowId: string, taskId: string | null): string | null {
  return taskId === null ? null : `${workflowId}:${taskId}`;
}

function locatorOf(value: JsonObject, span: Span): string {
  return str(value.id) ?? String(span.start);
}

function payloadOf(value: JsonObject): JsonObject {
  return isRecord(value.payload) ? value.payload : {};
}

function bodyOf(value: YamlValue | undefined): string {
  return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
}

function messageEntry(place: WorkflowPlace, value: JsonObject, span: Span, opts: ReadOptions): Entry {
  const date = isoToUtc(value.timestamp);
  const type = str(value.type);
  const requiresAck = typeof value.requires_ack === "boolean" ? value.requires_ack : ACKED_TYPES.has(type ?? "");
  const payload = payloadOf(value);
  return makeEntry({
    kind: "message", locator: locatorOf(value, span), span, messageId: str(value.id), from: str(value.from),
    to: str(value.to) ? [str(value.to) as string] : [], type, date, agent: place.agent, folder: place.folder,
    // Unacked until an ack record says otherwise (statuses.resolve); due 5 s after it was sent.
    status: requiresAck ? "unacked" : "sent", rawStatus: null, dueAt: requiresAck ? addMs(date, opts.ackDueMs ?? ACK_DUE_MS) : null,
    threadKey: threadOf(place.workflowId, str(payload.task_id)), body: bodyOf(value.payload), data: value,
  });
}

/** `{msg_id, status, at}` (what the tools write) or `{id, timestamp, ack_for, from, status}` (the spec). */
function ackEntry(place: WorkflowPlace, value: JsonObject, span: Span): Entry {
  const target = str(value.msg_id) ?? str(value.ack_for);
  const status = str(value.status) ?? "received";
  const date = isoToUtc(value.at ?? value.timestamp);
  const from = str(value.from) ?? place.agent;
  return makeEntry({
    kind: "ack", locator: locatorOf(value, span), span, messageId: str(value.id), from, type: "ack", date,
    agent: place.agent, folder: place.folder, status, rawStatus: str(value.status), inReplyTo: target, body: "", data: value,
    links: target ? [{ kind: "acks", targetId: target, detail: { status, at: date, from } }] : [],
    problems: target ? [] : [{ code: "parse", message: "This ack record names no message (neither msg_id nor ack_for)." }],
  });
}

function logEntry(place: WorkflowPlace, value: JsonObject, span: Span): Entry {
  const data = isRecord(value.data) ? value.data : {};
  return makeEntry({
    kind: "log", locator: locatorOf(value, span), span, messageId: str(value.id),
    type: str(value.event_type) ?? str(value.error_type) ?? str(value.tool), date: isoToUtc(value.timestamp),
    from: str(value.agent_id) ?? str(data.from), agent: str(value.agent_id) ?? place.agent, folder: place.folder,
    status: "logged", rawStatus: str(value.status), threadKey: threadOf(place.workflowId, str(data.task_id)),
    inReplyTo: str(data.message_id), body: str(value.message) || bodyOf(value.data ?? value.input), data: value,
  });
}

export function read(relPath: string, bytes: Uint8Array, opts: ReadOptions = {}): FileRead {
  const place = placeWorkflow(relPath);
  const offset = opts.offset ?? 0;
  if (!place) return { entries: [], problems: [{ code: "path", message: `${relPath} is not a workflow channel, ack or log file.` }], consumed: offset + bytes.length };
  switch (place.role) {
    case "channel":
      return readStreamEntries(bytes, offset, (value, span) => messageEntry(place, value, span, opts));
    case "ack":
      return readStreamEntries(bytes, offset, (value, span) => ackEntry(place, value, span));
    case "log":
      return readStreamEntries(bytes, offset, (value, span) => logEntry(place, value, span));
    default:
      // Heartbeats and the registry are state, not entries: health.ts reads them.
      return { entries: [], problems: [], consumed: offset + bytes.length };
  }
}
