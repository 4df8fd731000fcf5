// Bounds on parsing untrusted bytes. Every file in a workspace is untrusted, and every adapter
// parses it with these caps, checked BEFORE anything is expanded, so a parse can stay on the main
// thread: no shape of file can make it run long or grow big enough to stall requests.
//
// Why bounded parsers rather than a worker pool with `resourceLimits`: a first scan of a small
// tree reads on the main thread because workers start cold (see ingest/scan.ts), and the detail
// view parses one file per request; both would pay a thread hop per file. With the caps below
// every hostile shape stops at its cap within about 0.1 s (measured on the 2-core box: a million-
// item list 0.10 s, 10,000 aliases of one list 0.12 s, an alias bomb 4 ms), where a 574-byte alias
// bomb used to grow the heap to 4 GB, 200,000 nested brackets overflowed `yaml`'s stack after
// 2.5 s and a million-item list took `yaml` 18.7 s. The slowest file left is a legitimate one: an
// 8 MiB YAML block scalar, about 0.65 s. Ingest lets requests in every 50 ms between files
// (ingest/main-thread.ts), so one file is the longest a request waits on parsing.
import type { YamlValue } from "@/lib/model";
import { isoOfMs } from "./iso-time";

const KIB = 1024;

export const PARSE_LIMITS = {
  /** Alias expansions in one document, counting those inside an expanded alias (`yaml`'s default, which compose uses too). */
  aliases: 100,
  /** Text an alias may repeat, in all (a 1 MiB scalar aliased 99 times is 99 MiB of JSON). */
  aliasChars: 1024 * KIB,
  /** Nesting of collections. Real IGNITE bodies nest under 10; js-yaml's own backstop is 100. */
  depth: 64,
  /** Values (scalars, lists, maps) in one document once aliases are expanded: `yaml` takes ~19 µs each. */
  values: 100_000,
  /**
   * One whole file of the wave-2 YAML protocols, or one value of a JSON stream, in characters or
   * bytes: these are re-read whole on each change, and real ones are a few KB (a full 50-message
   * shogun inbox about 20 KB). js-yaml reads 1 MiB in about 0.1 s here.
   */
  documentBytes: 1024 * KIB,
  /** Header lines in one header block (upstream writers emit about 15). */
  headerLines: 1000,
  /** One header line, in characters (RFC 5322 says 998; a long To: list stays well under). */
  headerLineChars: 16 * KIB,
} as const;

/** A parse stopped at one of PARSE_LIMITS; the message says which, as a file's problem. */
export class ParseLimitError extends Error {
  /** @param what the part of the file, e.g. "YAML body"; @param limit what it exceeded, e.g. "more than 100 aliases expanded". */
  constructor(what: string, limit: string) {
    super(`${what}: ${limit} (limit).`);
    this.name = "ParseLimitError";
  }
}

const count = (n: number) => n.toLocaleString("en-US");

export const limitText = {
  aliases: (n: number = PARSE_LIMITS.aliases) => `more than ${count(n)} aliases expanded`,
  aliasChars: (n: number = PARSE_LIMITS.aliasChars) => `aliases expand to more than ${count(n / KIB)} KiB of text`,
  depth: (n: number = PARSE_LIMITS.depth) => `nested more than ${count(n)} deep`,
  values: (n: number = PARSE_LIMITS.values) => `more than ${count(n)} values`,
  headerLines: (n: number = PARSE_LIMITS.headerLines) => `more than ${count(n)} header lines`,
  headerLineChars: (n: number = PARSE_LIMITS.headerLineChars) => `a header line longer than ${count(n / KIB)} KiB`,
  chars: (n: number) => `longer than ${count(n / KIB)} KiB, not parsed`,
};

/** Budgets for turning a parsed document into plain values; aliased objects are the ones met twice. */
export interface ExpandBudget {
  what: string;
  aliases: number;
  aliasChars: number;
  values: number;
}

/**
 * Plain JSON values only (no Map/Set/Date/bigint/NaN reaches the API), walking a parsed document
 * within `budget`: an object met a second time is an alias expansion, and everything under it
 * counts against the alias budgets; every value counts against `values`. The input's depth must
 * already be bounded (the parsers check it), so the recursion is too.
 */
export function toPlainBounded(value: unknown, budget: ExpandBudget): YamlValue {
  const seen = new WeakSet<object>();
  let values = 0;
  let aliases = 0;
  let aliasChars = 0;
  const walk = (v: unknown, inAlias: boolean): YamlValue => {
    if (++values > budget.values) throw new ParseLimitError(budget.what, limitText.values(budget.values));
    if (typeof v === "string" && inAlias && (aliasChars += v.length) > budget.aliasChars) {
      throw new ParseLimitError(budget.what, limitText.aliasChars(budget.aliasChars));
    }
    if (typeof v !== "object" || v === null || v instanceof Date) return scalar(v);
    let expanding = inAlias;
    if (seen.has(v)) {
      if (++aliases > budget.aliases) throw new ParseLimitError(budget.what, limitText.aliases(budget.aliases));
      expanding = true;
    }
    seen.add(v);
    if (Array.isArray(v) || v instanceof Set) return Array.from(v, (x: unknown) => walk(x, expanding));
    const entries: Iterable<[unknown, unknown]> = v instanceof Map ? v : Object.entries(v);
    // fromEntries defines own properties, so a key like "__proto__" stays data.
    return Object.fromEntries(Array.from(entries, ([k, x]) => [String(k), walk(x, expanding)]));
  };
  return walk(value, false);
}

function scalar(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return isoOfMs(value.getTime());
  return String(value);
}

/** Where a text parse failed, or which limit it hit. */
export type BoundedParse =
  | { ok: true; data: YamlValue }
  | { ok: false; limit: true; problem: string }
  | { ok: false; limit: false; line: number | null; column: number | null; reason: string };

/**
 * The lines of a header block, at most PARSE_LIMITS.headerLines of at most headerLineChars each,
 * split at `lineBreak` (a pattern without capture groups). Stops at the first line over a limit and
 * says which. One split, whose limit ends it a line past the cap however many lines follow (a 10 MB
 * block of short lines: 0.2 ms), into slices of `text` (V8 copies none, however long): a first scan
 * reads a block a file: 15 lines read one RegExp exec at a time took 6.8 µs, split 1.3 µs.
 */
export function boundedLines(text: string, lineBreak: RegExp, what: string): { lines: string[]; problem: string | null } {
  const lines = text.split(lineBreak, PARSE_LIMITS.headerLines + 1);
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? "").length > PARSE_LIMITS.headerLineChars) return { lines: lines.slice(0, i), problem: new ParseLimitError(what, limitText.headerLineChars()).message };
    if (i >= PARSE_LIMITS.headerLines) return { lines: lines.slice(0, i), problem: new ParseLimitError(what, limitText.headerLines()).message };
  }
  return { lines, problem: null };
}
