// Writing IGNITE message files byte for byte as the upstream tools do (`ignite_mime.py build`,
// `update-status`/`update-header`/`remove-header`, and the queue monitor's retry and DLQ steps),
// so the real tools read what Mailroom and the demo write, unchanged.
import { randomBytes } from "node:crypto";
import { NAME_PATTERN } from "@/lib/model";

export interface BuildInput {
  from: string;
  to: string[];
  cc?: string[];
  type: string;
  priority?: string;
  threadId?: string;
  inReplyTo?: string;
  repository?: string;
  issue?: string | number;
  status?: string;
  body: string;
  /** The Date header's time (default: now). */
  date?: Date;
  /** Default: a fresh id from `newMessageId(date, process.pid)`. */
  messageId?: string;
}

const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** Header values never contain CR, LF or NUL (docs/DESIGN.md "Safety rules"): they would forge headers. */
export function assertHeaderValue(name: string, value: string): void {
  if (/[\r\n\0]/.test(value)) throw new Error(`header ${name}: value must not contain CR, LF or NUL`);
}

function assertHeaderName(name: string): void {
  if (!HEADER_NAME.test(name)) throw new Error(`invalid header name: ${JSON.stringify(name)}`);
}

/** The upstream builder's layout: fixed header order, LF endings, raw UTF-8, body as given. */
export function buildMessage(input: BuildInput): string {
  if (input.to.length === 0) throw new Error("To: at least one recipient is required");
  for (const name of [...input.to, ...(input.cc ?? [])]) {
    // A comma would split one recipient into two when the header is read back.
    if (name.includes(",")) throw new Error(`recipient ${JSON.stringify(name)} must not contain a comma`);
  }
  const date = input.date ?? new Date();
  const headers: [string, string][] = [
    ["MIME-Version", "1.0"],
    ["Message-ID", input.messageId ?? newMessageId(date, process.pid)],
    ["From", input.from],
    ["To", input.to.join(", ")],
  ];
  if (input.cc && input.cc.length > 0) headers.push(["Cc", input.cc.join(", ")]);
  headers.push(["Date", rfc2822Date(date)]);
  headers.push(["X-IGNITE-Type", input.type]);
  headers.push(["X-IGNITE-Priority", input.priority || "normal"]);
  // Upstream adds these only when truthy (an empty string is left out too).
  if (input.threadId) headers.push(["X-IGNITE-Thread-ID", input.threadId]);
  if (input.inReplyTo) headers.push(["In-Reply-To", input.inReplyTo]);
  if (input.repository) headers.push(["X-IGNITE-Repository", input.repository]);
  if (input.issue !== undefined && input.issue !== "") headers.push(["X-IGNITE-Issue", String(input.issue)]);
  if (input.status) headers.push(["X-IGNITE-Status", input.status]);
  headers.push(["Content-Type", "text/x-yaml; charset=utf-8"]);
  headers.push(["Content-Transfer-Encoding", "8bit"]);
  for (const [name, value] of headers) assertHeaderValue(name, value);
  return headers.map(([n, v]) => `${n}: ${v}`).join("\n") + "\n\n" + input.body;
}

function cryptoRandom64(): bigint {
  return randomBytes(8).readBigUInt64BE();
}

/** Python's `make_msgid(domain="ignite.local")`: `<int(time*100).pid.getrandbits(64)@ignite.local>`. */
export function newMessageId(now: Date, pid: number, random64: () => bigint = cryptoRandom64): string {
  return `<${Math.floor(now.getTime() / 10)}.${pid}.${random64().toString()}@ignite.local>`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function offsetParts(date: Date): { sign: string; hh: string; mm: string } {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return { sign: minutes < 0 ? "-" : "+", hh: pad(Math.floor(abs / 60)), mm: pad(abs % 60) };
}

/** `formatdate(localtime=True)`: `Fri, 20 Nov 2026 09:59:45 +0900` in this process's time zone. */
export function rfc2822Date(date: Date): string {
  const { sign, hh, mm } = offsetParts(date);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${DAYS[date.getDay()]}, ${pad(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()} ${time} ${sign}${hh}${mm}`;
}

/** `date -Iseconds`: `2026-11-20T09:59:45+09:00` in this process's time zone. */
export function isoWithOffset(date: Date): string {
  const { sign, hh, mm } = offsetParts(date);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${day}T${time}${sign}${hh}:${mm}`;
}

/** `{type}_{16-digit unix microseconds}.mime`; `extraMicros` (0–999) adds what a Date cannot hold. */
export function messageFileName(type: string, date: Date, extraMicros = 0): string {
  if (!NAME_PATTERN.test(type)) throw new Error(`invalid message type: ${JSON.stringify(type)}`);
  const micros = BigInt(date.getTime()) * 1000n + BigInt(((Math.trunc(extraMicros) % 1000) + 1000) % 1000);
  return `${type}_${micros.toString().padStart(16, "0")}.mime`;
}

// ---- in-place header editing (ignite_mime.py update_header / remove_header) ----

/** Python `str.splitlines()`: every Unicode line boundary, no trailing empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** `raw.partition("\n\n")`, falling back to CRLF as upstream does. */
export function splitRaw(raw: string): { head: string; body: string } {
  const lf = raw.indexOf("\n\n");
  let head = lf >= 0 ? raw.slice(0, lf) : raw;
  let body = lf >= 0 ? raw.slice(lf + 2) : "";
  const crlf = raw.indexOf("\r\n\r\n");
  if (!body && crlf >= 0) {
    head = raw.slice(0, crlf);
    body = raw.slice(crlf + 4);
  }
  return { head, body };
}

/** Replace the first `name:` line where it is, or append it after the last header. */
export function setHeader(text: string, name: string, value: string): string {
  assertHeaderName(name);
  assertHeaderValue(name, value);
  const { head, body } = splitRaw(text);
  const lines = splitLines(head);
  const index = lines.findIndex((line) => line.startsWith(`${name}:`));
  if (index >= 0) lines[index] = `${name}: ${value}`;
  else lines.push(`${name}: ${value}`);
  return lines.join("\n") + "\n\n" + body;
}

/** Drop every `name:` line (case-sensitive, like the tools). */
export function removeHeader(text: string, name: string): string {
  assertHeaderName(name);
  const { head, body } = splitRaw(text);
  const lines = splitLines(head).filter((line) => !line.startsWith(`${name}:`));
  return lines.join("\n") + "\n\n" + body;
}

/** A header's value as the reference `parse` reads it (trimmed, folded, last one wins), or null. */
export function getHeader(text: string, name: string): string | null {
  let found: string | null = null;
  let current = "";
  for (const line of splitLines(splitRaw(text).head)) {
    if ((line.startsWith(" ") || line.startsWith("\t")) && current) {
      if (current === name && found !== null) found += " " + line.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    current = line.slice(0, colon).trim();
    if (current === name) found = line.slice(colon + 1).trim();
  }
  return found;
}

// ---- the queue monitor's lifecycle steps ----

/** Picked up: `update-status processing --processed-at <now>`. */
export function markProcessing(text: string, at: Date): string {
  return setHeader(setHeader(text, "X-IGNITE-Status", "processing"), "X-IGNITE-Processed-At", isoWithOffset(at));
}

export function retryCountOf(text: string): number {
  const n = Number.parseInt(getHeader(text, "X-IGNITE-Retry-Count") ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Full jitter: a whole number of seconds in [0, min(300, 5 × 2^count)] (retry_handler.sh). */
export function retryBackoffSeconds(retryCount: number, random: () => number = Math.random): number {
  const cap = Math.min(300, 5 * 2 ** retryCount);
  return Math.min(cap, Math.floor(random() * (cap + 1)));
}

/** `process_retry`: Error-* removed, status retrying, Retry-Count n+1, Last-Retry-At, Next-Retry-After. */
export function markRetrying(text: string, at: Date, nextRetryAfter: Date): string {
  let out = removeHeader(removeHeader(text, "X-IGNITE-Error-Reason"), "X-IGNITE-Error-At");
  out = setHeader(out, "X-IGNITE-Status", "retrying");
  out = setHeader(out, "X-IGNITE-Retry-Count", String(retryCountOf(text) + 1));
  out = setHeader(out, "X-IGNITE-Last-Retry-At", isoWithOffset(at));
  return setHeader(out, "X-IGNITE-Next-Retry-After", isoWithOffset(nextRetryAfter));
}

export interface DeadLetterInfo {
  retryCount: number;
  maxRetries: number;
  lastError: string;
  movedAt: Date;
  messageId?: string;
}

/** `move_to_dlq`: `sed 's/^/  /'` inside `$(…)`, which drops the trailing newlines. */
function indentOriginal(text: string): string {
  if (text === "") return "";
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines.map((line) => `  ${line}`).join("\n").replace(/\n+$/, "");
}

/** The dead letter dlq_handler.sh writes to `queue/dead_letter/{base}_dlq_{sec}.mime`. */
export function buildDeadLetter(originalText: string, originalFileName: string, info: DeadLetterInfo): string {
  const body = [
    `original_file: "${originalFileName}"`,
    "failure_info:",
    `  retry_count: ${info.retryCount}`,
    `  max_retries: ${info.maxRetries}`,
    `  last_error: "${info.lastError}"`,
    `  moved_at: "${isoWithOffset(info.movedAt)}"`,
    "original_message: |",
    indentOriginal(originalText),
  ].join("\n");
  return buildMessage({
    from: "queue_monitor", to: ["leader"], type: "dead_letter", priority: "critical",
    status: "dead_letter", body, date: info.movedAt, messageId: info.messageId,
  });
}

export interface EscalationInfo {
  /** Upstream reads these after the original is deleted, so they come out "unknown". */
  taskId?: string;
  title?: string;
  originalAssignee?: string;
  failureReason: string;
  retryCount: number;
  maxRetries: number;
  recommendedAction?: string;
  /** `<runtime dir>/queue/dead_letter/`, absolute. */
  dlqPath: string;
  notes?: string;
  date: Date;
  messageId?: string;
}

/** The escalation dlq_handler.sh writes to `queue/leader/escalation_{sec}.mime`. */
export function buildEscalation(info: EscalationInfo): string {
  const body = [
    `task_id: "${info.taskId ?? "unknown"}"`,
    `title: "${info.title ?? "unknown"}"`,
    `original_assignee: "${info.originalAssignee ?? "unknown"}"`,
    `failure_reason: "${info.failureReason}"`,
    `retry_count: ${info.retryCount}`,
    `max_retries: ${info.maxRetries}`,
    `recommended_action: "${info.recommendedAction ?? "manual_review"}"`,
    `dlq_path: "${info.dlqPath}"`,
    `notes: "${info.notes ?? "リトライ上限に到達したためエスカレーションします"}"`,
  ].join("\n");
  return buildMessage({
    from: "queue_monitor", to: ["leader"], type: "escalation", priority: "critical",
    status: "queued", body, date: info.date, messageId: info.messageId,
  });
}
