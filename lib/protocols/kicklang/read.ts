// Reads the appended part of a KickLang channel file into envelope entries, checking the
// protocol's rules on each (shown as problems, never a reason to drop it). Pure.
import type { YamlValue } from "@/lib/model";
import type { EntryProblem, FileRead } from "@/lib/protocols/entries";
import { addMs, isoToUtc, makeEntry, str } from "@/lib/protocols/entry-kit";
import { isoOfMs } from "@/lib/protocols/iso-time";
import { readStreamEntries, type JsonObject } from "@/lib/protocols/json-stream";
import { ORCHESTRATOR, REQUEST_TYPES, SPACE_FORMAT_PROBLEM, spaceFormatProblem } from "./client";
import { placeKicklang } from "./paths";

export { REQUEST_TYPES };

export interface ReadOptions {
  /** Where `bytes` start in the file: the previous read's `consumed` (0 for a whole file). */
  offset?: number;
  /** Time a request (Command, Query) may stay unanswered before it is due. */
  answerDueMs?: number;
}

export const ANSWER_DUE_MS = 300_000;
const DISPATCH = "⫻command/dispatch";

/** Upstream writes `correlationId` as well as `correlation_id`; a missing one is usually an omitted key. */
export function correlationOf(value: JsonObject): string | null {
  return str(value.correlation_id) ?? str(value.correlationId);
}

/** An ISO string, or upstream's serialized `Date` as epoch milliseconds. */
function dateOf(value: YamlValue | undefined): string | null {
  if (typeof value === "number") return isoOfMs(value);
  return isoToUtc(value);
}

/** A response answers a request: reports and answers on query channels; alerts and requests are not. */
function isResponse(type: string | null, channel: string | null): boolean {
  if (type === null || REQUEST_TYPES.has(type) || type === "Alert") return false;
  return channel !== null && (channel.startsWith("⫻report/") || channel.startsWith("⫻query/"));
}

export function ruleProblems(value: JsonObject, fileChannel: string): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const content = value.content;
  const channel = str(value.channel);
  const sender = str(value.sender);
  const type = str(value.type);
  const format = typeof content === "string" ? spaceFormatProblem(content) : SPACE_FORMAT_PROBLEM;
  if (format) problems.push({ code: "rule:space-format", message: format });
  if (channel === DISPATCH && sender !== ORCHESTRATOR) {
    problems.push({ code: "rule:role-authorization", message: `Only the ${ORCHESTRATOR} sends on ${DISPATCH}; this was sent by ${sender ?? "no sender"}.` });
  }
  if (isResponse(type, channel) && correlationOf(value) === null) {
    problems.push({ code: "rule:correlation", message: "This response does not carry the correlation id of the request it answers." });
  }
  if (channel !== fileChannel) {
    problems.push({ code: "rule:channel-file", message: `The envelope names channel ${channel ?? "(none)"} but sits in the file of ${fileChannel}.` });
  }
  return problems;
}

export function read(relPath: string, bytes: Uint8Array, opts: ReadOptions = {}): FileRead {
  const place = placeKicklang(relPath);
  const offset = opts.offset ?? 0;
  if (!place) return { entries: [], problems: [{ code: "path", message: `${relPath} is not a KickLang channel file.` }], consumed: offset + bytes.length };
  return readStreamEntries(bytes, offset, (value, span) => {
    const id = str(value.id);
    const type = str(value.type);
    const date = dateOf(value.timestamp);
    const correlationId = correlationOf(value);
    const request = type !== null && REQUEST_TYPES.has(type);
    return makeEntry({
      kind: "message", locator: id ?? String(span.start), span, messageId: id, from: str(value.sender),
      to: str(value.receiver) ? [str(value.receiver) as string] : [], type, date, agent: place.agent, folder: place.folder,
      // A request is unanswered until an envelope correlates to it (statuses.resolve).
      status: request ? "unanswered" : "sent", rawStatus: null, dueAt: request ? addMs(date, opts.answerDueMs ?? ANSWER_DUE_MS) : null,
      threadKey: correlationId ?? id, inReplyTo: correlationId, correlationId,
      body: typeof value.content === "string" ? value.content : JSON.stringify(value.content ?? null),
      data: value, links: correlationId ? [{ kind: "replies", targetId: correlationId }] : [], problems: ruleProblems(value, place.agent),
    });
  });
}
