// The summary fields of a message from its headers (names matched case-sensitively, later
// duplicate wins, as the IGNITE tools do), with the older `type/from/to/payload` YAML body as a
// fallback for type, sender and recipients. Pure.
import type { YamlValue } from "@/lib/model";
import type { ParsedMessage } from "@/lib/protocols/types";
import { toUtcIso } from "./dates";
import { HEADER_PREFIX, headerMap, splitAddressList } from "./reference";
import { isRecord } from "./yaml-body";

/**
 * The queue monitor dead-letters a timed-out message once its retry count reaches DLQ_MAX_RETRIES
 * (3 unless the monitor's environment says otherwise, which Mailroom cannot see).
 */
export const MONITOR_MAX_RETRIES = 3;

export type SummaryFields = Omit<ParsedMessage, "status" | "body" | "problems" | "deadLetter">;

export interface Summary {
  fields: SummaryFields;
  rawStatus: string | null;
  type: string | null;
  problems: string[];
}

function legacyText(value: YamlValue | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function legacyList(value: YamlValue | undefined): string[] {
  if (typeof value === "string") return splitAddressList(value);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
  return [];
}

/**
 * `complete` is false for files that are not readable messages: their missing headers are not
 * reported again (the reason they are invalid says enough).
 */
export function summarize(lines: readonly [string, string][], data: YamlValue | null, complete: boolean): Summary {
  const h = headerMap(lines);
  const get = (name: string): string | null => h.get(name) || null;
  const legacy = isRecord(data) ? data : {};
  const problems: string[] = [];

  const messageId = get("Message-ID");
  if (!messageId) problems.push("The Message-ID header is missing.");

  const from = get("From") ?? legacyText(legacy.from);
  if (!from) problems.push("The From header is missing.");
  const toHeader = splitAddressList(h.get("To") ?? "");
  const to = toHeader.length > 0 ? toHeader : legacyList(legacy.to);
  if (to.length === 0) problems.push("The To header is missing.");

  const rawDate = get("Date");
  const date = rawDate === null ? null : toUtcIso(rawDate);
  if (rawDate === null) problems.push("The Date header is missing.");
  else if (date === null) problems.push(`The Date header "${rawDate}" is not a valid RFC 2822 date.`);

  const rawRetry = get(`${HEADER_PREFIX}Retry-Count`);
  const retryCount = rawRetry !== null && /^\d{1,9}$/.test(rawRetry) ? Number(rawRetry) : 0;
  if (rawRetry !== null && !/^\d{1,9}$/.test(rawRetry)) problems.push(`X-IGNITE-Retry-Count "${rawRetry}" is not a whole number.`);
  if (retryCount > MONITOR_MAX_RETRIES) {
    // The monitor's own check reads `retry_count:` from the body (mime_body_get), not this header.
    problems.push(
      `Retried ${retryCount} times, past the maximum of ${MONITOR_MAX_RETRIES} (the queue monitor's DLQ_MAX_RETRIES default). ` +
        "The monitor compares the body's retry_count, not this header, so it may go on retrying it instead of dead-lettering it.",
    );
  }

  const rawNext = get(`${HEADER_PREFIX}Next-Retry-After`);
  const nextRetryAt = rawNext === null ? null : toUtcIso(rawNext);
  if (rawNext !== null && nextRetryAt === null) problems.push(`X-IGNITE-Next-Retry-After "${rawNext}" is not a valid date.`);

  // Never from the file name: only the header, then the legacy body key.
  const type = get(`${HEADER_PREFIX}Type`) ?? legacyText(legacy.type);
  const priority = get(`${HEADER_PREFIX}Priority`) ?? legacyText(legacy.priority) ?? (complete ? "normal" : null);
  const rawStatus = get(`${HEADER_PREFIX}Status`);

  return {
    fields: {
      messageId,
      from,
      to,
      cc: splitAddressList(h.get("Cc") ?? ""),
      type,
      priority,
      threadId: get(`${HEADER_PREFIX}Thread-ID`),
      inReplyTo: get("In-Reply-To"),
      correlationId: null,
      repository: get(`${HEADER_PREFIX}Repository`),
      issue: get(`${HEADER_PREFIX}Issue`),
      date,
      rawStatus,
      retryCount,
      nextRetryAt,
    },
    rawStatus,
    type,
    problems: complete ? problems : [],
  };
}
