// Small pieces every wave-2 reader uses to build entries, so each protocol only states its own
// fields. Pure.
import type { YamlValue } from "@/lib/model";
import type { Entry, EntryProblem } from "./entries";
import { canonicalIso, isoOfMs } from "./iso-time";

type Required_ = Pick<Entry, "kind" | "locator" | "agent" | "folder" | "status">;

/** An entry with every optional field empty; the reader fills in what its protocol has. */
export function makeEntry(fields: Required_ & Partial<Entry>): Entry {
  return {
    span: null,
    messageId: null,
    from: null,
    to: [],
    type: null,
    priority: null,
    date: null,
    rawStatus: null,
    threadKey: null,
    inReplyTo: null,
    correlationId: null,
    retryCount: 0,
    dueAt: null,
    body: "",
    data: null,
    links: [],
    problems: [],
    ...fields,
  };
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO 8601 time to ISO 8601 UTC, or null. A time without an offset (shogun writes local time)
 * is read at `localOffsetMinutes` east of UTC, else at the server's own offset for that date:
 * the agents run on the machine that holds their files.
 */
export function isoToUtc(value: unknown, localOffsetMinutes?: number): string | null {
  if (typeof value !== "string") return null;
  const canonical = canonicalIso(value);
  if (canonical !== null) return canonical;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, frac, zone] = m;
  const ms = Number((frac ?? "0").padEnd(3, "0").slice(0, 3));
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mi), Number(ss ?? "0"), ms] as const;
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const check = new Date(0);
  check.setUTCFullYear(fields[0], fields[1], fields[2]);
  check.setUTCHours(fields[3], fields[4], fields[5], fields[6]);
  const asUtc = check.getTime();
  // Reject out-of-range fields (31 Feb, 25:00) instead of letting Date roll them over.
  if (check.getUTCDate() !== fields[2] || check.getUTCMonth() !== fields[1] || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) {
    return null;
  }
  let offset: number;
  if (zone === undefined) offset = localOffsetMinutes ?? -new Date(...fields).getTimezoneOffset();
  else if (/^z$/i.test(zone)) offset = 0;
  else {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
    if (!z) return null;
    if (Number(z[2]) > 23 || Number(z[3] ?? "0") > 59) return null;
    offset = (Number(z[2]) * 60 + Number(z[3] ?? "0")) * (z[1] === "-" ? -1 : 1);
  }
  return isoOfMs(asUtc - offset * 60_000);
}

/** `iso` plus `ms` milliseconds, as ISO 8601 UTC; null stays null, and so does a time past JavaScript's last date. */
export function addMs(iso: string | null, ms: number): string | null {
  return iso === null ? null : isoOfMs(Date.parse(iso) + ms);
}

/**
 * Dotfiles, locks and temp files are never protocol files (writers' atomic-write debris). `parts`
 * are the path below the protocol's own top folder, which may itself be a dot folder (`.kicklang`).
 */
export function isDebris(parts: readonly string[]): boolean {
  return parts.some((part) => part === "" || part.startsWith(".") || part.endsWith(".lock") || part.endsWith(".lock.d") || part.includes(".tmp"));
}

/** The bytes as UTF-8 text; invalid bytes (a write cut mid-character) become \uFFFD and a problem. */
export function decodeUtf8(bytes: Uint8Array, problems: EntryProblem[]): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    problems.push({ code: "encoding", message: "The file is not valid UTF-8 (cut in the middle of a character?); bad bytes are shown as \uFFFD." });
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/**
 * `text` without the spaces and tabs at either end, in one pass: `[ \t]*(.*?)[ \t]*$` over a line of
 * spaces ending in a character `.` does not take (\r, U+2028) backtracked cubically (4,000 spaces: 20 s).
 */
export function trimBlank(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === " " || text[start] === "\t")) start++;
  while (end > start && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(start, end);
}

/** `key: value` lines (YAML's top-level scalars, read without a parser): a line's key and its value, trimmed; null for any other line. */
export function keyLine(line: string): { key: string; value: string } | null {
  const colon = line.indexOf(":");
  if (colon <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(line.slice(0, colon))) return null;
  return { key: line.slice(0, colon), value: trimBlank(line.slice(colon + 1)) };
}

/** A shell-written value with one pair of double quotes taken off (`"x"`, `x"` and `"x` all give x); null with a quote left inside. */
export function unquotedValue(value: string): string | null {
  const inner = value.slice(value.startsWith('"') ? 1 : 0, value.length > 1 && value.endsWith('"') ? -1 : undefined);
  return inner.includes('"') ? null : inner;
}

/** A value whose id an earlier value of the same file has (kept apart as `id@offset`, not merged into it). */
export function duplicateId(id: string, firstAt: number): EntryProblem {
  return { code: "duplicate", message: `The value at byte ${firstAt.toLocaleString("en-US")} of this file has the same id, ${id}: this one is listed apart.` };
}

export function isRecord(value: YamlValue | null | undefined): value is { [key: string]: YamlValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A field as a single-line string (numbers too), or null: values become summary fields. */
export function str(value: YamlValue | null | undefined): string | null {
  if (typeof value === "string") return value.replace(/[\r\n\0]+/g, " ");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/** A field as single-line strings: a list's, or the one value's (`to: a` and `to: [a, b]` both occur). */
export function listOf(value: YamlValue | undefined): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => str(v) ?? []);
  const one = str(value);
  return one ? [one] : [];
}
