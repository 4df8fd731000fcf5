// From one file (its place, its bytes, its lstat facts) to the summary fields Mailroom keeps.
// Every problem is said in a sentence; a file that cannot be read is still listed (status
// "invalid"). No filesystem access: the caller reads the bytes (never through a symlink).
import type { Status } from "@/lib/model";
import { MAX_FILE_BYTES, type DescribeOptions, type DetailFields, type FoundFile, type ParsedMessage, type Placement } from "@/lib/protocols/types";
import { parseDeadLetterBody } from "./dead-letter";
import { mimeHeader } from "./foreign";
import { readMessage, type MessageText } from "./message";
import { REQUEUED_TO } from "./requeued";
import { parseReference } from "./reference";
import { summarize } from "./summary";
import { read as readV2 } from "@/lib/protocols/ignite-yaml/client";
import { checkYamlBody, isYamlContentType, parseYamlBody } from "./yaml-body";

export interface ParseInput {
  relPath: string;
  placement: Placement;
  bytes: Buffer | null;
  found: FoundFile;
}

const MIB = 1024 * 1024;

/** The lifecycle status from where the file is, what its X-IGNITE-Status says, and whether a requeue archived it (requeued.ts). */
export function statusFor(folder: Placement["folder"], rawStatus: string | null, requeued = false): Status {
  switch (folder) {
    case "dead_letter":
      return "dead";
    case "archive":
      return requeued ? "requeued" : "discarded";
    case "processed":
      // `error` (mark_as_error) is its own state: the monitor's timeout scan skips it, so it is never
      // retried. An empty status counts as processing, unknown values too (shown via rawStatus).
      if (rawStatus === "error") return "error";
      return rawStatus === "delivered" || rawStatus === "completed" ? rawStatus : "processing";
    default:
      return rawStatus === "retrying" ? "retrying" : "queued";
  }
}

function unreadable(problem: string, status: Status = "invalid"): ParsedMessage {
  return {
    messageId: null, from: null, to: [], cc: [], type: null, priority: null, threadId: null,
    inReplyTo: null, correlationId: null, repository: null, issue: null, date: null,
    rawStatus: null, status, retryCount: 0, nextRetryAt: null, body: "", problems: [problem],
    deadLetter: null,
  };
}

/** Why a file that was found cannot be read as a message at all, or null. */
function refusal(found: FoundFile, bytes: Buffer | null, oversized: boolean): string | null {
  if (found.kind === "symlink") return "This is a symbolic link; Mailroom never reads or follows links inside a queue.";
  if (found.kind === "directory") return "A directory is where a message file should be.";
  if (found.kind === "other") return "This is not a regular file (a device, socket or pipe), so it was not read.";
  if (bytes === null && !oversized) return "The file could not be read.";
  if (bytes !== null && bytes.length === 0 && !oversized) return "The file is empty (0 bytes).";
  return null;
}

/** Problems that make the text unusable as a message (status "invalid"). */
function textProblems(m: MessageText): string[] {
  if (m.hasNul) return ["The file holds binary data (NUL bytes), not message text."];
  if (!m.hasHeaderBlock && !m.headersOnly) {
    return ["No header block: the file has no empty line separating headers from the body."];
  }
  if (m.headerLimit) return [m.headerLimit];
  if (m.headers.length === 0) return ["No headers: the file does not start with `Name: value` header lines."];
  return [];
}

/** A path that holds a v2 (YAML) message, not a MIME one. */
export const isV2Message = (relPath: string): boolean => relPath.endsWith(".yaml");

/**
 * A v2 message in a v3 queue (the monitor converts it into a `.mime` of the same name on its next
 * poll), read by IGNITE v2's own reader. It has no Message-ID of its own, so the `.mime` that
 * replaces it continues it by name (lib/ingest/sync.ts), and its history says it was converted.
 */
function readV2Message(relPath: string, placement: Placement, bytes: Buffer): ParsedMessage {
  const v2Path = `queue/${placement.agent}/${relPath.slice(relPath.lastIndexOf("/") + 1)}`;
  const { entries, problems } = readV2(v2Path, bytes);
  const e = entries[0];
  const problemText = [...problems, ...(e?.problems ?? [])].map((p) => p.message);
  return {
    messageId: null, from: e?.from ?? null, to: e?.to ?? [], cc: [], type: e?.type ?? null, priority: e?.priority ?? null,
    threadId: e?.threadKey ?? null, inReplyTo: null, correlationId: null, repository: null, issue: null, date: e?.date ?? null,
    rawStatus: e?.rawStatus ?? null, status: e ? e.status : "invalid", retryCount: e?.retryCount ?? 0, nextRetryAt: null,
    body: e?.body ?? bytes.toString("utf8"), problems: problemText, deadLetter: null,
  };
}

export async function parseIgniteFile({ relPath, placement, bytes, found }: ParseInput): Promise<ParsedMessage> {
  if (bytes !== null && isV2Message(relPath) && found.size <= MAX_FILE_BYTES) return readV2Message(relPath, placement, bytes);
  const oversized = found.size > MAX_FILE_BYTES || (bytes !== null && bytes.length > MAX_FILE_BYTES);
  const refused = refusal(found, bytes, oversized);
  if (refused) return unreadable(refused);
  const tooBig = `The file is larger than ${MAX_FILE_BYTES / MIB} MiB (${found.size} bytes)`;
  // Not read at all: the folder alone tells where it is in its lifecycle.
  if (bytes === null) return unreadable(`${tooBig}; it was not read.`, statusFor(placement.folder, null));

  const m = await readMessage(bytes, oversized);
  const invalid = textProblems(m);
  const problems = oversized ? [`${tooBig}; only its headers were read.`, ...invalid] : [...invalid];
  if (!m.validUtf8 && !m.hasNul) {
    problems.push(
      m.encoding.foreign && m.encoding.charset !== null
        ? `The file is not valid UTF-8, so the IGNITE tools cannot read it; it was decoded as ${m.encoding.charset}.`
        : "The file is not valid UTF-8; bytes that could not be decoded are shown as \uFFFD.",
    );
  }

  const yamlBody = m.body !== "" && m.hasHeaderBlock && isYamlContentType(mimeHeader(m.headers, "Content-Type"));
  const yaml = yamlBody ? checkYamlBody(m.body) : { data: null, error: null };
  if (yaml.error && invalid.length === 0) problems.push(yaml.error);

  const s = summarize(m.headers, yaml.data, invalid.length === 0);
  if (invalid.length === 0) problems.push(...s.problems);
  const status = invalid.length > 0 ? "invalid" : statusFor(placement.folder, s.rawStatus, placement.folder === "archive" && mimeHeader(m.headers, REQUEUED_TO) !== "");
  const isDeadLetter = invalid.length === 0 && (placement.folder === "dead_letter" || s.type === "dead_letter");

  // Added to the summary's own fresh object: a spread into a new literal took V8's slow path for
  // every file: a parse took 44 µs of CPU (median; 30 at best) with it, 36 µs (24) without.
  const deadLetter = isDeadLetter && !m.headersOnly ? parseDeadLetterBody(m.body, yaml.data) : null;
  return Object.assign(s.fields, {
    status,
    body: m.hasNul ? "" : m.body,
    problems,
    deadLetter,
    // A letter carries no X-IGNITE-Retry-Count of its own: its retries are its original's, from failure_info
    // (what /dead-letters shows; the letter's page said "—" beside the list's 3).
    retryCount: s.fields.retryCount || (deadLetter?.retryCount ?? 0),
  });
}

/** The detail view of one file's bytes (of its headers only, for the head of a file too big to keep). */
export async function describeIgniteFile(bytes: Buffer, { headOnly = false }: DescribeOptions = {}): Promise<DetailFields> {
  const m = await readMessage(bytes, headOnly || bytes.length > MAX_FILE_BYTES);
  const yamlBody = m.hasHeaderBlock && !m.headersOnly && !m.hasNul && isYamlContentType(mimeHeader(m.headers, "Content-Type"));
  return {
    headers: m.headers,
    body: m.body,
    data: yamlBody ? parseYamlBody(m.body).data : null,
    ignite: parseReference(m.referenceText),
  };
}
