// A faithful port of upstream IGNITE's `ignite_mime.py` reader (`parse_message`, and what the
// `parse` CLI does around it). Mailroom's `ignite` detail field must equal the tool's JSON, so the
// Python string semantics (partition, splitlines, strip) are reproduced exactly. Pure.
import { boundedLines } from "@/lib/protocols/limits";
import { withKeyOrder } from "@/lib/protocols/key-order";

/** The reference tool's `parse` JSON: fixed keys first, then extra X-IGNITE-* keys in header order. */
export type IgniteReference = Record<string, string | string[]>;

export const HEADER_PREFIX = "X-IGNITE-";

/** X-IGNITE-* headers the tool maps to fixed keys; every other one becomes a snake_case key. */
const MAPPED_IGNITE = new Set(["Type", "Priority", "Thread-ID", "Repository", "Issue", "Status"]);

// Python's str.splitlines() boundaries and str.strip() whitespace (both wider than JS's).
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_SPACE_CHAR = new RegExp(`[${PY_SPACE}]`);

/** Whether the UTF-16 unit at `i` is Python whitespace (all of which are in the BMP). ASCII by its code, the rest by PY_SPACE. */
function pySpaceAt(s: string, i: number): boolean {
  const code = s.charCodeAt(i);
  if (code < 0x80) return (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x20);
  return PY_SPACE_CHAR.test(s[i] ?? "");
}

/**
 * Python's `str.strip()` (JS `trim()` also strips U+FEFF and misses U+001C–U+001F, U+0085). From
 * each end a character at a time, linear whatever the text: a first scan strips a file's 30 header
 * names and values, which took 5.3 µs with a RegExp replace (every value has a leading space), 1.3 µs so.
 */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && pySpaceAt(s, start)) start++;
  while (end > start && pySpaceAt(s, end - 1)) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python's text-mode read (universal newlines): CRLF and lone CR become LF. */
export function universalNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

function partition(s: string, sep: string): [string, string, boolean] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, "", false] : [s.slice(0, i), s.slice(i + sep.length), true];
}

export interface HeaderBlock {
  /** Text before the first empty line (the whole text when there is none). */
  headerPart: string;
  /** Text after the empty line, as is ("" when there is none). */
  body: string;
  /** The separator that ended the header block, or null when the text has no empty line. */
  separator: "\n\n" | "\r\n\r\n" | null;
}

/** Split at the first empty line exactly as `parse_message` does (`\n\n`, else `\r\n\r\n`). */
export function splitHeaderBlock(text: string): HeaderBlock {
  const [headerPart, body, found] = partition(text, "\n\n");
  if (!body && text.includes("\r\n\r\n")) {
    const [h, b] = partition(text, "\r\n\r\n");
    return { headerPart: h, body: b, separator: "\r\n\r\n" };
  }
  return { headerPart, body, separator: found ? "\n\n" : null };
}

/**
 * Every header line in file order as [name, value], continuations joined with one space.
 * Lines that are neither a header nor a continuation are skipped, as the tool does. Reading stops
 * at PARSE_LIMITS (header lines and line length; the tool has none), and `problem` says which.
 */
export function readHeaderLines(headerPart: string): { headers: [string, string][]; problem: string | null } {
  const out: [string, string][] = [];
  let current: [string, string] | null = null;
  const { lines, problem } = boundedLines(headerPart, PY_LINE_BREAK, "Headers");
  for (const line of lines) {
    if ((line.startsWith(" ") || line.startsWith("\t")) && current !== null && current[0] !== "") {
      current[1] += " " + pyStrip(line);
    } else if (line.includes(":")) {
      const colon = line.indexOf(":");
      current = [pyStrip(line.slice(0, colon)), pyStrip(line.slice(colon + 1))];
      out.push(current);
    }
  }
  return { headers: out, problem };
}

/** The header lines readHeaderLines reads, without saying whether it stopped at a limit. */
export function parseHeaderLines(headerPart: string): [string, string][] {
  return readHeaderLines(headerPart).headers;
}

/** Name → value, case-sensitive; a later duplicate wins but keeps the first one's position (a Python dict). */
export function headerMap(lines: readonly (readonly [string, string])[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of lines) map.set(name, value);
  return map;
}

/** `To`/`Cc` as the tool splits them: on commas, trimmed, empties dropped. */
export function splitAddressList(value: string): string[] {
  return value.split(",").map(pyStrip).filter((v) => v !== "");
}

/** What `ignite_mime.py parse FILE` prints, given the file's text (decoded as UTF-8, BOM kept). */
export function parseReference(text: string): IgniteReference {
  const { headerPart, body } = splitHeaderBlock(universalNewlines(text));
  const headers = headerMap(parseHeaderLines(headerPart));
  const get = (name: string, fallback = ""): string => headers.get(name) ?? fallback;

  // A Map keeps Python's dict semantics: re-setting a key keeps its position.
  const out = new Map<string, string | string[]>([
    ["message_id", get("Message-ID")],
    ["from", get("From")],
    ["to", splitAddressList(get("To"))],
    ["cc", splitAddressList(get("Cc"))],
    ["date", get("Date")],
    ["in_reply_to", get("In-Reply-To")],
    ["type", get(`${HEADER_PREFIX}Type`)],
    ["priority", get(`${HEADER_PREFIX}Priority`, "normal")],
    ["thread_id", get(`${HEADER_PREFIX}Thread-ID`)],
    ["repository", get(`${HEADER_PREFIX}Repository`)],
    ["issue", get(`${HEADER_PREFIX}Issue`)],
    ["status", get(`${HEADER_PREFIX}Status`)],
    ["content_type", get("Content-Type")],
    ["body", body],
  ]);
  for (const [name, value] of headers) {
    if (!name.startsWith(HEADER_PREFIX)) continue;
    const short = name.slice(HEADER_PREFIX.length);
    if (!MAPPED_IGNITE.has(short)) out.set(short.toLowerCase().replaceAll("-", "_"), value);
  }
  // fromEntries defines own properties, so a key like "__proto__" stays data. A header named like
  // an integer (X-IGNITE-7) keeps its place in the dict's order, which the object alone would not.
  return withKeyOrder(Object.fromEntries(out), [...out.keys()]);
}
