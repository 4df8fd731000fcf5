// JSON from untrusted text within PARSE_LIMITS, for every adapter. JSON has no aliases, so a
// parse is linear in the text; what is bounded is what comes after it (a walk, a re-serialize, a
// recursive render), by counting depth and values in one pass over the text before JSON.parse.
// Pure; safe in the browser too.
import type { YamlValue } from "@/lib/model";
import { limitText, PARSE_LIMITS, ParseLimitError, type BoundedParse } from "./limits";

export interface BoundedJsonOptions {
  /** How a problem names the text, e.g. "JSON body". */
  what?: string;
  limits?: { depth?: number; values?: number };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }
const COMMA = 0x2c;

/** Throws ParseLimitError when the text nests deeper or holds more values than allowed (strings skipped exactly). */
function checkShape(text: string, what: string, depthLimit: number, valueLimit: number): void {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPEN.has(c)) {
      if (++depth > depthLimit) throw new ParseLimitError(what, limitText.depth(depthLimit));
      if (++values > valueLimit) throw new ParseLimitError(what, limitText.values(valueLimit));
    } else if (CLOSE.has(c)) {
      depth--;
    } else if (c === COMMA && ++values > valueLimit) {
      throw new ParseLimitError(what, limitText.values(valueLimit));
    }
  }
}

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** Parse `text` as JSON within the limits. Never throws on any input. */
export function parseJsonBounded(text: string, opts: BoundedJsonOptions = {}): BoundedParse {
  const what = opts.what ?? "JSON body";
  try {
    checkShape(text, what, opts.limits?.depth ?? PARSE_LIMITS.depth, opts.limits?.values ?? PARSE_LIMITS.values);
    // JSON.parse yields plain values only (no Map, Date or NaN).
    return { ok: true, data: JSON.parse(text) as YamlValue };
  } catch (err) {
    if (err instanceof ParseLimitError) return { ok: false, limit: true, problem: err.message };
    const message = err instanceof Error ? err.message : String(err);
    // Node says where as "position N" or "(line L column C)", or (for some errors) not at all.
    const at = /position (\d+)/.exec(message);
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    const where = at ? position(text, Number(at[1])) : lineCol ? { line: Number(lineCol[1]), column: Number(lineCol[2]) } : null;
    return { ok: false, limit: false, reason: message, line: where?.line ?? null, column: where?.column ?? null };
  }
}
