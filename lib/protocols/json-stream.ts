// One reader for every append-only "JSONL" file (workflow channels, acks, logs; KickLang
// channels). The shell writers append pretty-printed multi-line objects between compact lines,
// so a file is read as concatenated JSON values, not line by line. Each call reads only the bytes
// it is given (those after the last `consumed` offset), in one pass: O(bytes given). Measured on
// this 2-core machine: 57 MB of mixed values (200,000) in about 2 s, of which JSON.parse alone
// takes about 1 s; an append of a few hundred bytes costs microseconds. Each value is parsed by
// the one bounded JSON path (bounded-json.ts: depth and value counts). Pure.
import type { YamlValue } from "@/lib/model";
import { parseJsonBounded } from "./bounded-json";
import type { Entry, EntryProblem, FileRead } from "./entries";
import { duplicateId, isRecord } from "./entry-kit";
import { limitText, PARSE_LIMITS } from "./limits";

export interface StreamValue {
  ok: true;
  value: YamlValue;
  /** Absolute byte offsets in the file, [start, end). */
  start: number;
  end: number;
}

export interface StreamFault {
  ok: false;
  problem: EntryProblem;
  start: number;
  end: number;
}

export interface StreamRead {
  items: Array<StreamValue | StreamFault>;
  /** Absolute offset up to which the bytes were read; after it is a value still being written. */
  consumed: number;
}

const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const decoder = new TextDecoder("utf-8");
const MAX_BYTES = PARSE_LIMITS.documentBytes;
/**
 * Values (and faults) in one read: each becomes an entry of about 600 bytes of heap (a million
 * one-line objects took 582 MB and 3 s), so a read of a million short lines stops at 100,000.
 */
const MAX_VALUES = PARSE_LIMITS.values;
const limitProblem = (message: string): EntryProblem => ({ code: "limit", message });
const parseProblem = (message: string): EntryProblem => ({ code: "parse", message });

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === LF || b === 0x0d;
}
function isOpen(b: number | undefined): boolean {
  return b === 0x7b || b === 0x5b; // { [
}
function isClose(b: number | undefined): boolean {
  return b === 0x7d || b === 0x5d; // } ]
}
/** Bytes that can begin a JSON scalar: - 0-9 t f n. */
function isScalarStart(b: number): boolean {
  return b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e;
}

interface Scan {
  /** Local end offset (exclusive), or -1 when the value runs past the bytes given. */
  end: number;
  /** Cut short: a raw newline in a string, or a new value starting at a line's first column. */
  cut: boolean;
}

/**
 * An object or array. Writers always start a value at a line's first column and indent what is
 * inside it, so a line beginning with `{` or `[` while one is open means the open one was cut off
 * (a writer died mid-value): it ends there, and reading resumes at the new value.
 */
function scanContainer(bytes: Uint8Array, start: number): Scan {
  let depth = 0;
  let inString = false;
  for (let j = start; j < bytes.length; j++) {
    const b = bytes[j];
    if (inString) {
      if (b === BACKSLASH) j++;
      else if (b === QUOTE) inString = false;
      else if (b === LF) return { end: j + 1, cut: true };
    } else if (b === QUOTE) inString = true;
    else if (isOpen(b)) depth++;
    else if (isClose(b)) {
      if (--depth === 0) return { end: j + 1, cut: false };
    } else if (b === LF && isOpen(bytes[j + 1])) return { end: j + 1, cut: true };
  }
  return { end: -1, cut: false };
}

/** A top-level string or scalar: a scalar is complete only once something follows it. */
function scanScalar(bytes: Uint8Array, start: number): Scan {
  if (bytes[start] === QUOTE) {
    for (let j = start + 1; j < bytes.length; j++) {
      const b = bytes[j];
      if (b === BACKSLASH) j++;
      else if (b === QUOTE) return { end: j + 1, cut: false };
      else if (b === LF) return { end: j + 1, cut: true };
    }
    return { end: -1, cut: false };
  }
  for (let j = start; j < bytes.length; j++) {
    const b = bytes[j];
    if (isSpace(b) || isOpen(b) || isClose(b) || b === QUOTE || b === 0x2c) return { end: j, cut: false };
  }
  return { end: -1, cut: false };
}

/** Bytes that cannot begin a value: one fault up to the next line that begins a value (or the end). */
function scanJunk(bytes: Uint8Array, start: number): Scan {
  for (let j = start; j < bytes.length; j++) {
    if (bytes[j] !== LF) continue;
    let k = j + 1;
    while (bytes[k] === 0x20 || bytes[k] === 0x09) k++;
    if (isOpen(bytes[k])) return { end: j + 1, cut: true };
  }
  return { end: bytes.length, cut: true };
}

function span(offset: number, start: number, end: number): string {
  return `bytes ${offset + start}–${offset + end}`;
}

function valueAt(bytes: Uint8Array, offset: number, start: number, scan: Scan): StreamValue | StreamFault {
  const at = { start: offset + start, end: offset + scan.end };
  const size = scan.end - start;
  if (size > MAX_BYTES) {
    return { ok: false, ...at, problem: limitProblem(`The value at ${span(offset, start, scan.end)} is larger than ${MAX_BYTES} bytes; it was not parsed.`) };
  }
  const parsed = parseJsonBounded(decoder.decode(bytes.subarray(start, scan.end)), { what: `The value at ${span(offset, start, scan.end)}` });
  if (parsed.ok) return { ok: true, ...at, value: parsed.data };
  if (parsed.limit) return { ok: false, ...at, problem: limitProblem(parsed.problem) };
  return { ok: false, ...at, problem: parseProblem(`The text at ${span(offset, start, scan.end)} is not valid JSON (${parsed.reason}).`) };
}

/**
 * Reads `bytes`, the part of a file that starts at byte `offset`, as concatenated JSON values
 * with whitespace (blank lines, CRLF) between them. A malformed value is a fault and reading
 * resumes at the next value; an incomplete last value is left unread (`consumed` stops before
 * it), unless it is already over the size limit, which no completion could make readable. A read
 * stops after PARSE_LIMITS.values values with a `limit` fault, `consumed` at where it stopped.
 */
export function readJsonStream(bytes: Uint8Array, offset = 0): StreamRead {
  const items: StreamRead["items"] = [];
  let i = offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0; // a BOM
  let consumed = i;
  while (i < bytes.length) {
    while (i < bytes.length && isSpace(bytes[i])) i++;
    consumed = i;
    const b = bytes[i];
    if (b === undefined) break;
    if (items.length === MAX_VALUES) {
      // Not skipped: `consumed` stops here, so the next read (from it) goes on where this one stopped.
      const problem = limitProblem(`The text from byte ${offset + i}: ${limitText.values(MAX_VALUES)} in one read, so reading stopped there and goes on in the next (limit).`);
      items.push({ ok: false, start: offset + i, end: offset + i, problem });
      break;
    }
    const scan = isOpen(b) ? scanContainer(bytes, i) : b === QUOTE || isScalarStart(b) ? scanScalar(bytes, i) : scanJunk(bytes, i);
    if (scan.end === -1) {
      if (bytes.length - i <= MAX_BYTES) break; // a write in progress: read it when it is complete
      const problem = limitProblem(`The unfinished value at ${span(offset, i, bytes.length)} is already larger than ${MAX_BYTES} bytes; it was skipped.`);
      items.push({ ok: false, start: offset + i, end: offset + bytes.length, problem });
      i = consumed = bytes.length;
      break;
    }
    if (scan.cut) {
      const what = isOpen(b) || b === QUOTE ? "is cut off" : "cannot begin a JSON value";
      const problem = parseProblem(`The text at ${span(offset, i, scan.end)} ${what}; reading resumed after it.`);
      items.push({ ok: false, start: offset + i, end: offset + scan.end, problem });
    } else {
      items.push(valueAt(bytes, offset, i, scan));
    }
    i = consumed = scan.end;
  }
  return { items, consumed: offset + consumed };
}

export type JsonObject = { [key: string]: YamlValue };

/**
 * A stream read into entries: each object becomes one through `toEntry`; faults and values that
 * are not objects become the file's problems. Bytes and offset as for readJsonStream.
 */
export function readStreamEntries(bytes: Uint8Array, offset: number, toEntry: (value: JsonObject, span: { start: number; end: number }) => Entry): FileRead {
  const { items, consumed } = readJsonStream(bytes, offset);
  const entries: Entry[] = [];
  const problems: EntryProblem[] = [];
  // Where each locator was first seen in this read: a second value with the same id is kept apart.
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!item.ok) problems.push(item.problem);
    else if (!isRecord(item.value)) problems.push(parseProblem(`The value at bytes ${item.start}–${item.end} is not a JSON object.`));
    else {
      const e = toEntry(item.value, { start: item.start, end: item.end });
      const first = seen.get(e.locator);
      if (first === undefined) {
        seen.set(e.locator, item.start);
        entries.push(e);
      } else entries.push({ ...e, locator: `${e.locator}@${item.start}`, problems: [...e.problems, duplicateId(e.locator, first)] });
    }
  }
  return { entries, problems, consumed };
}
