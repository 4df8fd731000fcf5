// Reading a dead letter's YAML body (written by upstream `dlq_handler.sh`): which file failed,
// why, and the embedded original message, whose Message-ID and To tell Mailroom which message
// died and which queue it was bound for. Pure.
import { NAME_PATTERN, type YamlValue } from "@/lib/model";
import type { DeadLetterInfo } from "@/lib/protocols/types";
import { keyLine, unquotedValue } from "@/lib/protocols/entry-kit";
import { toUtcIso } from "./dates";
import { headerMap, parseHeaderLines, splitAddressList, splitHeaderBlock, universalNewlines } from "./reference";
import { isRecord, parseYamlBody } from "./yaml-body";

function text(value: YamlValue | undefined): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

function count(value: YamlValue | undefined): number | null {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

/**
 * A `key: |` block scalar read line by line, for bodies the YAML parser rejects (e.g. an original
 * message that broke the indentation). Clip chomping, like the parser.
 */
export function extractBlockScalar(body: string, key: string): string | null {
  const lines = universalNewlines(body).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`${key}:`) && /:\s*\|[-+0-9]*\s*$/.test(l));
  if (start < 0) return null;
  const block: string[] = [];
  let indent = -1;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") {
      block.push("");
      continue;
    }
    const lead = line.length - line.trimStart().length;
    if (indent < 0) indent = lead;
    if (lead < indent || indent === 0) break;
    block.push(line.slice(indent));
  }
  while (block.length > 0 && block[block.length - 1] === "") block.pop();
  return block.length > 0 ? block.join("\n") + "\n" : null;
}

/** The first `key: value` line's value (any line break starts a line, as a regex's `m` flag has it); quotes taken off. */
function scalarLine(body: string, key: string): string | null {
  for (const line of body.split(/\r\n|[\r\n\u2028\u2029]/)) {
    const field = keyLine(line);
    const value = field?.key === key ? unquotedValue(field.value) : null;
    if (value !== null) return value || null;
  }
  return null;
}

/** A bare file name: the writer joins it to a queue path, so no separators and no dot names. */
function safeFileName(name: string | null): string | null {
  return name !== null && /^[^/\\\0]+$/.test(name) && !name.startsWith(".") ? name : null;
}

/** The dead letter's facts; fields it cannot find are null. `parsed`: the body's YAML, if already parsed. */
export function parseDeadLetterBody(body: string, parsed?: YamlValue | null): DeadLetterInfo {
  const data = parsed === undefined ? parseYamlBody(body).data : parsed;
  const root = isRecord(data) ? data : {};
  const failure = isRecord(root.failure_info) ? root.failure_info : {};
  const isYaml = isRecord(data);

  const originalText = text(root.original_message) ?? (isYaml ? null : extractBlockScalar(body, "original_message"));
  const original = originalText === null ? null : headerMap(parseHeaderLines(splitHeaderBlock(originalText).headerPart));
  const movedAt = text(failure.moved_at);
  const agent = splitAddressList(original?.get("To") ?? "")[0];

  return {
    // Names that could not be used as a path (e.g. "../x", an agent with spaces) come back null.
    originalFile: safeFileName(text(root.original_file) ?? (isYaml ? null : scalarLine(body, "original_file"))),
    originalMessageId: original?.get("Message-ID") || null,
    originalAgent: agent !== undefined && NAME_PATTERN.test(agent) ? agent : null,
    originalText,
    retryCount: count(failure.retry_count),
    lastError: text(failure.last_error),
    // ISO 8601 UTC like every date in the model; kept as written when it does not parse.
    movedAt: movedAt === null ? null : (toUtcIso(movedAt) ?? movedAt),
  };
}
