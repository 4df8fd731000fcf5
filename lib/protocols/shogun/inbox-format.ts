// An inbox's bytes as the agents' writers make them (inbox_write.sh: PyYAML `yaml.dump(data,
// default_flow_style=False, allow_unicode=True, indent=2)`): keys sorted, list items flush with
// `messages:`, strings quoted where YAML 1.1 (PyYAML) would read them as anything else. Pure.
import { Document, isScalar, stringify, visit } from "yaml";
import type { YamlValue } from "@/lib/model";
import type { EntryProblem } from "@/lib/protocols/entries";
import { parseYamlFile } from "@/lib/protocols/bounded-yaml";
import { isRecord } from "@/lib/protocols/entry-kit";
import { pyyamlReadsAsOtherThanString } from "@/lib/protocols/pyyaml-schema";

export type Mapping = { [key: string]: YamlValue };

export interface Inbox {
  /** Every top-level key but `messages` (kept as it is). */
  rest: Mapping;
  messages: Mapping[];
}

/** inbox_write.sh's overflow rule: past 50 messages keep every unread one plus the newest 30 read, unread first. */
export const OVERFLOW_AT = 50;
export const KEEP_READ = 30;

/** Why an inbox cannot be rewritten: `lasting` when no retry helps (its shape, not a write in progress). */
export interface InboxProblem {
  problem: string;
  lasting: boolean;
}

/** Read an inbox for rewriting, or say why it cannot be (a half-written file, not a mapping). */
export function loadInbox(text: string): Inbox | InboxProblem {
  // As PyYAML reads it: a rewrite keeps another agent's `content: 1e3` text, not 1000.
  const parsed = parseYamlFile(text, "The inbox", { schema: "pyyaml" });
  if (parsed.problem) return { problem: parsed.problem.message, lasting: false };
  const data = parsed.data ?? {};
  if (!isRecord(data)) return { problem: "The inbox is not a YAML mapping.", lasting: true };
  const { messages, ...rest } = data;
  // A rewrite keeps every item, so an item the reader passes over is refused here too.
  if (inboxShapeProblems(messages).length > 0) return { problem: `The inbox's \`messages:\` ${messagesShape(messages)}.`, lasting: true };
  // PyYAML's `if not data.get('messages')`: null, missing and [] are all an empty inbox.
  return { rest, messages: Array.isArray(messages) ? (messages as Mapping[]) : [] };
}

/** What is wrong with an inbox's `messages:` (null, missing and [] are an empty inbox, as inbox_write.sh has it). */
export function inboxShapeProblems(messages: YamlValue | undefined): EntryProblem[] {
  if (messages === undefined || messages === null) return [];
  if (!Array.isArray(messages)) return [{ code: "parse", message: `The inbox's \`messages:\` ${messagesShape(messages)}.` }];
  return messages.some((m) => !isRecord(m)) ? [{ code: "shape", message: `The inbox's \`messages:\` ${messagesShape(messages)}: passed over.` }] : [];
}

/** What is wrong with a `messages:` that is not a list of mappings, as a predicate ("is not a list…", "item 3 is not a mapping"). */
function messagesShape(messages: YamlValue | undefined): string {
  if (!Array.isArray(messages)) return `is not a list of mappings (it is ${isRecord(messages) ? "a mapping" : `the ${typeof messages} ${JSON.stringify(messages).slice(0, 40)}`})`;
  const odd = messages.flatMap((m, i) => (isRecord(m) ? [] : [i + 1]));
  return `item${odd.length === 1 ? "" : "s"} ${odd.slice(0, 10).join(", ")}${odd.length > 10 ? ", …" : ""} ${odd.length === 1 ? "is" : "are"} not a mapping`;
}

function isRead(m: Mapping): boolean {
  // Python truthiness of `m.get("read", False)`, as the writer tests it.
  const r = m.read;
  return !(r === undefined || r === null || r === false || r === 0 || r === "" || (Array.isArray(r) && r.length === 0));
}

/** The list after one append, as the writer leaves it. */
export function applyOverflow(messages: Mapping[]): Mapping[] {
  if (messages.length <= OVERFLOW_AT) return messages;
  const read = messages.filter(isRead);
  return [...messages.filter((m) => !isRead(m)), ...read.slice(-KEEP_READ)];
}

/**
 * Text PyYAML writes only double-quoted with escapes, and refuses to read raw: a tab, control
 * characters, DEL, C1 controls, NEL, the Unicode line and paragraph separators, a BOM, a lone
 * surrogate. Written plain (`a<TAB>b`) or raw inside quotes, the whole inbox no longer loads in
 * inbox_write.sh, and the agent stops getting messages.
 */
const NEEDS_ESCAPES = /[^\n\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u2028\u2029\uFEFF]/u;
/** Of those, what the yaml package leaves raw inside double quotes; each escaped as PyYAML writes it. */
const RAW_IN_DOUBLE_QUOTES = /[\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]/g;
const ESCAPED: Record<string, string> = { "\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P" };
const escapeRaw = (c: string) => ESCAPED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}` : `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Printable text only: the one kind PyYAML puts in single quotes (anything else is double-quoted by both). */
const SINGLE_QUOTABLE = /^[\n\x20-\x7E\u00A0-\uD7FF\uE000-\uFFFD]*$/;

/**
 * PyYAML single-quotes a string holding `'` (doubling it) where the yaml package would switch to
 * double quotes; both read back the same, this keeps the bytes the agents' writer would produce.
 */
function wantsSingleQuotes(value: string): boolean {
  return value.includes("'") && SINGLE_QUOTABLE.test(value) && /^["']/.test(stringify(value, { singleQuote: true, blockQuote: false, lineWidth: 0 }));
}

const MERGE_TAG = "tag:yaml.org,2002:merge";

export function dumpInbox(inbox: Inbox): string {
  // Without the merge tag: with it, the yaml package writes the text `<<` plain (a merge key to PyYAML) whatever its style.
  const doc = new Document({ messages: inbox.messages, ...inbox.rest }, { version: "1.1", sortMapEntries: true, customTags: (tags) => tags.filter((t) => (typeof t === "string" ? t !== "merge" : t.tag !== MERGE_TAG)) });
  // YAML 1.1 quotes what it resolves (yes, on, timestamps); PyYAML's own resolvers and text it refuses raw are seen to here.
  visit(doc, {
    Scalar(_, node) {
      if (!isScalar(node) || typeof node.value !== "string") return;
      if (NEEDS_ESCAPES.test(node.value)) node.type = "QUOTE_DOUBLE";
      else if (pyyamlReadsAsOtherThanString(node.value) || wantsSingleQuotes(node.value)) node.type = "QUOTE_SINGLE";
    },
  });
  // Those characters occur only inside the strings just set to double quotes.
  return doc.toString({ indentSeq: false, singleQuote: true, blockQuote: false, lineWidth: 80 }).replace(RAW_IN_DOUBLE_QUOTES, escapeRaw);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** `2026-02-06T10:52:31`: local time without offset (`date "+%Y-%m-%dT%H:%M:%S"`). */
export function localTimestamp(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/** `msg_20260206_105231_c01d5e42`: local date and time, then 4 random bytes in hex. */
export function messageId(now: Date, hex: string): string {
  const stamp = localTimestamp(now).replace(/[-:]/g, "").replace("T", "_");
  return `msg_${stamp}_${hex}`;
}
