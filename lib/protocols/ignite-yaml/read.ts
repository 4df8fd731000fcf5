// Reads one IGNITE v2 message file (a YAML document) into its entry. The folder is the truth
// for the status (protocol doc); fields, not the file name, give type and time, since renamed
// files carry an md5 in their "microseconds". Broken YAML is listed with what could be recovered. Pure.
import type { YamlValue } from "@/lib/model";
import { parseYamlFile } from "@/lib/protocols/bounded-yaml";
import type { Entry, EntryLink, EntryProblem, FileRead } from "@/lib/protocols/entries";
import { addMs, decodeUtf8, isoToUtc, isRecord, keyLine, listOf, makeEntry, str } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";
import { REQUEUED_TO } from "./lifecycle";
import { placeIgniteYaml } from "./paths";
import { summaryOf } from "./summary";

export interface ReadOptions {
  /** Time in `processing` before an entry is due (the monitor's timeout: 300 s). */
  processingTimeoutMs?: number;
  /** The file's mtime: when a processed file has no `processed_at`, the monitor times it from here. */
  mtimeMs?: number;
}

export const PROCESSING_TIMEOUT_MS = 300_000;
type Mapping = { [key: string]: YamlValue };

/** Top-level `key: scalar` lines of a file that does not parse; a later line wins, as in the monitor's YAML reader. */
export function recoverFields(text: string): Mapping {
  const out: Mapping = {};
  for (const line of text.split(/\r?\n/)) {
    const field = keyLine(line);
    if (!field) continue;
    const raw = field.value;
    const quoted = /^"(.*)"$|^'(.*)'$/s.exec(raw);
    if (quoted) out[field.key] = quoted[1] ?? quoted[2] ?? "";
    else if (/^\d{1,15}$/.test(raw)) out[field.key] = Number(raw); // retry_count
    else out[field.key] = raw === "" || raw === "|" || raw === ">" ? null : raw;
  }
  return out;
}

/** A mapping from YAML text, bounded; a problem and the recovered fields when it does not parse. */
function mappingOf(text: string, what: string, problems: EntryProblem[]): Mapping {
  const parsed = parseYamlFile(text, what);
  if (parsed.problem) {
    problems.push(parsed.problem);
    return recoverFields(text);
  }
  if (isRecord(parsed.data)) return parsed.data;
  problems.push({ code: "parse", message: `${what} is not a YAML mapping of message fields.` });
  return {};
}

function stem(name: string): string {
  return (name.split("/").pop() ?? name).replace(/\.yaml$/, "");
}

/** The task a message belongs to (its thread): `task_id` at the top or in its payload, unless a placeholder. */
function taskIdOf(m: Mapping): string | null {
  const payload = isRecord(m.payload) ? m.payload : {};
  const id = str(m.task_id) ?? str(payload.task_id);
  return id && !["unknown", "none", "null", "n/a"].includes(id.toLowerCase()) ? id : null;
}

/**
 * A message's id: its file's stem, as the monitor would name it. An escalation is written as
 * `escalation_{seconds}` and renamed `escalation_{seconds}{6 digits}` a poll later (protocol
 * doc): both are one message, so its id is the name it was written under.
 */
export function messageIdOf(fileStem: string): string {
  const escalation = /^(escalation_\d{10})\d{6}$/.exec(fileStem);
  return escalation?.[1] ?? fileStem;
}

function statusOf(place: Place, raw: string | null, retryCount: number, requeued: boolean): string {
  switch (place.folder) {
    case "dead_letter":
      return "dead";
    case "archive":
      return requeued ? "requeued" : "discarded";
    // The monitor treats a missing status (what `ignite plan` and `ignite notify` write) as processing.
    case "processed":
      return raw === "delivered" || raw === "completed" ? raw : "processing";
    default:
      return raw === "retrying" || retryCount > 0 ? "retrying" : "queued";
  }
}

/** The dead letter's hold on its original, and the original's own fields parsed from `original_message`. */
function deadLetter(letter: Mapping, fileStem: string, problems: EntryProblem[]): { link: EntryLink; original: Mapping | null } {
  const info = isRecord(letter.failure_info) ? letter.failure_info : {};
  const text = typeof letter.original_message === "string" ? letter.original_message : null;
  const original = text === null ? null : mappingOf(text, "The original_message", problems);
  const originalFile = str(letter.original_file);
  const link: EntryLink = {
    kind: "holds",
    // Its name before `_dlq_` is the original's own name when original_file is missing.
    targetId: messageIdOf(originalFile ? stem(originalFile) : fileStem.replace(/_dlq_\d+$/, "")),
    detail: {
      originalFile,
      originalAgent: original ? (listOf(original.to)[0] ?? null) : null,
      retryCount: typeof info.retry_count === "number" ? info.retry_count : null,
      lastError: str(info.last_error),
      movedAt: isoToUtc(info.moved_at),
    },
  };
  return { link, original };
}

export function read(relPath: string, bytes: Uint8Array, opts: ReadOptions = {}): FileRead {
  const place = placeIgniteYaml(relPath);
  if (!place) return { entries: [], problems: [{ code: "path", message: `${relPath} is not an IGNITE v2 message location.` }], consumed: bytes.length };
  const problems: EntryProblem[] = [];
  const text = decodeUtf8(bytes, problems);
  if (bytes.length === 0) problems.push({ code: "empty", message: "The file is empty (0 bytes)." });
  const fields = text.trim() === "" ? {} : mappingOf(text, "The file", problems);
  const fileStem = stem(relPath);
  const isLetter = place.folder === "dead_letter" || fields.type === "dead_letter";
  const letter = isLetter ? deadLetter(fields, fileStem, problems) : null;
  // A dead letter has no from/to/priority of its own: those of the message it holds.
  const who = letter?.original ?? fields;

  const timestamp = str(fields.timestamp);
  const date = isoToUtc(timestamp);
  if (timestamp !== null && date === null) problems.push({ code: "date", message: `The timestamp "${timestamp}" is not an ISO 8601 time.` });
  const rawStatus = str(fields.status);
  const letterRetries = letter?.link.detail?.retryCount;
  const retryCount = typeof fields.retry_count === "number" ? fields.retry_count : typeof letterRetries === "number" ? letterRetries : 0;
  // A dead letter archived by Mailroom's requeue bears its mark (lifecycle.ts markedRequeued).
  const status = statusOf(place, rawStatus, retryCount, str(fields[REQUEUED_TO]) !== null);
  const timeout = opts.processingTimeoutMs ?? PROCESSING_TIMEOUT_MS;
  const since = isoToUtc(fields.processed_at) ?? (opts.mtimeMs !== undefined ? new Date(opts.mtimeMs).toISOString() : date);

  const threadKey = taskIdOf(fields) ?? (letter?.original ? taskIdOf(letter.original) : null);
  const data: Mapping | null = Object.keys(fields).length === 0 ? null : letter?.original ? { ...fields, original_message: letter.original } : fields;
  const entry: Entry = makeEntry({
    kind: "message",
    locator: "",
    messageId: messageIdOf(fileStem),
    from: str(who.from),
    to: listOf(who.to),
    type: str(fields.type),
    priority: str(who.priority),
    date,
    agent: place.agent,
    folder: place.folder,
    status,
    rawStatus,
    retryCount,
    dueAt: status === "processing" ? addMs(since, timeout) : null,
    body: text,
    summary: summaryOf(text, typeof fields.original_message === "string" && letter ? fields.original_message : null),
    data,
    links: letter ? [letter.link] : [],
    problems,
    threadKey,
  });
  return { entries: [entry], problems: [], consumed: bytes.length };
}
