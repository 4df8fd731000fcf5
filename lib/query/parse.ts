// The search syntax (README "Search"), parsed into a filter the journal compiles to SQL.
// Pure: no I/O, usable on the client for hints and on the server for the real thing.
import { PROTOCOLS, type Protocol } from "@/lib/model";
import { PROTOCOL_ALIASES } from "@/lib/protocols/labels";

export const FIELDS = [
  "from", "to", "agent", "type", "priority", "status", "thread", "repo", "issue", "folder", "mid", "path",
  "protocol", "source", "before", "after", "is", "has", "retries",
] as const;
export type Field = (typeof FIELDS)[number];
export type TextField = Exclude<Field, "before" | "after" | "is" | "has" | "retries">;

export const IS_VALUES = ["stuck", "duplicate", "dead", "gone"] as const;
export const HAS_VALUES = ["problem", "thread", "reply", "retries"] as const;

export type Term =
  | { kind: "field"; field: TextField; value: string; negate: boolean }
  /** `relative`: the date was written from now (`after:-1h`), so it means another time at each parse. */
  | { kind: "date"; field: "before" | "after"; ms: number; relative: boolean; negate: boolean }
  | { kind: "retries"; op: "=" | ">" | ">=" | "<" | "<="; n: number; negate: boolean }
  | { kind: "is"; value: (typeof IS_VALUES)[number]; negate: boolean }
  | { kind: "has"; value: (typeof HAS_VALUES)[number]; negate: boolean }
  | { kind: "text"; value: string; negate: boolean };

/**
 * The words status: and folder: accept: every protocol's, from the catalogs (the server's
 * VOCABULARY, the browser's useVocabulary()). Handed in as data, so the parser reads no protocol.
 */
export interface SearchWords {
  statuses: readonly string[];
  folders: readonly string[];
}

export class QueryError extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(`${message} (at position ${position + 1})`);
    this.name = "QueryError";
  }
}

/** Longer searches are refused (the API's `q` and the pages' box share this bound). */
export const MAX_QUERY_LENGTH = 2000;
/** Each term is one more AND in the SQL, and SQLite refuses expressions past a depth of 1000. */
export const MAX_TERMS = 100;

export interface QueryLimits {
  length: number;
  terms: number;
}

const LIMITS: QueryLimits = { length: MAX_QUERY_LENGTH, terms: MAX_TERMS };
/** Control characters other than the whitespace that separates words: nothing a person types, and NUL ends an FTS5 string. */
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;

const RELATIVE = /^-(\d+)(s|m|h|d|w)$/;
const UNIT_MS = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 } as const;

/** A day the calendar has: 2026-02-30 parses (as March 2nd), and is not one. */
function isCalendarDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day);
}

function parseDate(raw: string, at: number, now: number): number {
  const rel = RELATIVE.exec(raw);
  if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS];
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    if (isCalendarDay(raw)) return Date.parse(`${raw}T00:00:00Z`);
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(raw) && isCalendarDay(raw.slice(0, 10))) {
    // A time without a zone is UTC, like a bare date: never the zone of whichever machine parses it
    // (this runs on the server and in the browser).
    const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? raw : `${raw}Z`);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new QueryError(at, `"${raw}" is not a date: use 2026-11-20, 2026-11-20T09:30:00Z (UTC unless it ends in an offset like +09:00) or a relative time like -1h, -30m, -2d`);
}

/** One of a fixed list of words, in any case (status:DEAD is status:dead). */
function oneOf<T extends string>(list: readonly T[], value: string, at: number, what: string): T {
  const word = value.toLowerCase();
  if ((list as readonly string[]).includes(word)) return word as T;
  throw new QueryError(at, `unknown ${what} "${value}": expected one of ${list.join(", ")}`);
}

/** A protocol id or one of its aliases (protocol:v2 is protocol:ignite-yaml), in any case. */
function protocolWord(value: string, at: number): Protocol {
  const word = value.toLowerCase();
  const alias = PROTOCOL_ALIASES.get(word);
  if (alias) return alias;
  if ((PROTOCOLS as readonly string[]).includes(word)) return word as Protocol;
  const aliases = [...PROTOCOL_ALIASES].map(([a, p]) => `${a} for ${p}`);
  throw new QueryError(at, `unknown protocol "${value}": expected one of ${PROTOCOLS.join(", ")} (or ${aliases.join(", ")})`);
}

interface Token {
  /** The token with quotes removed. */
  text: string;
  /** The token as typed. */
  raw: string;
  at: number;
}

/** Split on spaces, keeping "quoted phrases" (also as field values: from:"a b") together. */
function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i] ?? "")) {
      i++;
      continue;
    }
    const start = i;
    let text = "";
    while (i < q.length && !/\s/.test(q[i] ?? "")) {
      if (q[i] === '"') {
        const end = q.indexOf('"', i + 1);
        if (end < 0) throw new QueryError(i, 'unclosed quote: add a closing "');
        text += q.slice(i + 1, end);
        i = end + 1;
      } else {
        text += q[i];
        i++;
      }
    }
    tokens.push({ text, raw: q.slice(start, i), at: start });
  }
  return tokens;
}

const RETRIES = /^retries(>=|<=|>|<|=|:)(\d+)$/i;
/** A comparison that is not a whole number (retries>x, retries>, retries>-1) is an error, never text. */
const RETRIES_COMPARISON = /^retries(>=|<=|>|<|=)/i;

/** Parse a query string; throws QueryError naming the position and what was expected. */
export function parseQuery(q: string, words: SearchWords, now: number = Date.now(), limits: QueryLimits = LIMITS): Term[] {
  if (q.length > limits.length) {
    throw new QueryError(limits.length, `the search is ${q.length} characters long: at most ${limits.length}`);
  }
  const control = CONTROL.exec(q);
  if (control) {
    const code = `U+${(control[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
    throw new QueryError(control.index, `a control character (${code}) cannot be searched for: remove it`);
  }
  const tokens = tokenize(q);
  const extra = tokens[limits.terms];
  if (extra) throw new QueryError(extra.at, `too many terms: a search has at most ${limits.terms}`);
  const terms: Term[] = [];
  for (const tok of tokens) {
    // A leading "-" outside quotes negates; "-a phrase" in quotes is just text.
    const negate = tok.raw.startsWith("-") && tok.raw.length > 1;
    const raw = negate ? tok.raw.slice(1) : tok.raw;
    const text = negate ? tok.text.slice(1) : tok.text;
    const retries = RETRIES.exec(raw);
    if (retries) {
      const op = retries[1] === ":" ? "=" : (retries[1] as "=" | ">" | ">=" | "<" | "<=");
      terms.push({ kind: "retries", op, n: Number(retries[2]), negate });
      continue;
    }
    const comparison = RETRIES_COMPARISON.exec(raw);
    if (comparison) {
      const valueAt = tok.at + (negate ? 1 : 0) + comparison[0].length;
      throw new QueryError(valueAt, `"${raw}" needs a whole number after ${comparison[1]}: write retries${comparison[1]}N, e.g. retries${comparison[1]}2`);
    }
    const fieldMatch = /^([a-z]+):/i.exec(raw);
    if (!fieldMatch) {
      // A bare OR between terms reads as "either", and was searched as the word: no result said why.
      if (raw === "OR" && !negate && tok !== tokens[0] && tok !== tokens.at(-1)) {
        throw new QueryError(tok.at, 'OR is not part of the search: every term must match. Search for each side on its own, or put "OR" in quotes to find the word');
      }
      if (text !== "") terms.push({ kind: "text", value: text, negate });
      continue;
    }
    const colon = (fieldMatch[1] ?? "").length;
    const name = text.slice(0, colon).toLowerCase();
    const value = text.slice(colon + 1);
    const valueAt = tok.at + (negate ? 1 : 0) + colon + 1;
    if (!(FIELDS as readonly string[]).includes(name)) {
      throw new QueryError(
        tok.at,
        `unknown field "${name}:": expected one of ${FIELDS.map((f) => f + ":").join(" ")}, or put the word in quotes to search for it as text ("${name}:…")`,
      );
    }
    if (value === "") throw new QueryError(valueAt, `"${name}:" needs a value`);
    const field = name as Field;
    if (field === "retries") throw new QueryError(tok.at, "write retries as retries>N, retries>=N, retries<N or retries:N");
    if (field === "before" || field === "after") {
      terms.push({ kind: "date", field, ms: parseDate(value, valueAt, now), relative: RELATIVE.test(value), negate });
    } else if (field === "is") {
      terms.push({ kind: "is", value: oneOf(IS_VALUES, value, valueAt, "is: value"), negate });
    } else if (field === "has") {
      terms.push({ kind: "has", value: oneOf(HAS_VALUES, value, valueAt, "has: value"), negate });
    } else if (field === "protocol") {
      terms.push({ kind: "field", field, value: protocolWord(value, valueAt), negate });
    } else {
      const word =
        field === "status" ? oneOf(words.statuses, value, valueAt, "status") : field === "folder" ? oneOf(words.folders, value, valueAt, "folder") : value;
      terms.push({ kind: "field", field, value: word, negate });
    }
  }
  return terms;
}

/**
 * The limits left for a search box on a page that adds `fixed` to it (`agent:leader`): the API
 * holds the two together to the limits, so the box is held to what the fixed part leaves.
 */
export function limitsBeside(fixed: string | undefined, words: SearchWords): QueryLimits {
  if (!fixed) return LIMITS;
  return { length: MAX_QUERY_LENGTH - fixed.length - 1, terms: MAX_TERMS - parseQuery(fixed, words).length };
}
