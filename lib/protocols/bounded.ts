// Parsing untrusted bytes with bounded time and memory (DESIGN "Safety rules"), shared by the
// wave-2 readers (ignite-yaml, shogun; the JSON streams use json-stream.ts). Over a limit is a
// `limit` problem, never a throw or a hang. Pure.
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import type { YamlValue } from "@/lib/model";
import type { EntryProblem } from "./entries";

export const LIMITS = {
  /**
   * Bytes of YAML parsed as a document. The `yaml` package is super-linear on hostile input
   * (40 KB of nested flow brackets took 0.67 s here), so larger text is not parsed at all.
   */
  maxYamlBytes: 1024 * 1024,
  /** One JSON value (a stream's line or object); real messages are a few KB. */
  maxJsonBytes: 1024 * 1024,
  /** Nesting of mappings/lists; real files nest under 10. */
  maxDepth: 64,
  /** Aliases resolved per document: a "billion laughs" body expands exponentially. */
  maxAliasCount: 50,
} as const;

export interface Parsed {
  data: YamlValue | null;
  problem: EntryProblem | null;
}

export interface ParsedYaml extends Parsed {
  /** The parsed document, for node positions (null when it was not parsed or has errors). */
  doc: Document | null;
}

export function limitProblem(message: string): EntryProblem {
  return { code: "limit", message };
}

export function parseProblem(message: string): EntryProblem {
  return { code: "parse", message };
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * The deepest nesting of flow brackets (`[`, `{`), ignoring quoted text. Checked before parsing
 * because the parser's cost grows with it; an over-estimate only refuses a very odd file.
 */
export function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote || c === "\n") quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
  }
  return max;
}

/** Depth of a parsed YAML node tree, walked without recursion (a deep tree must not overflow the stack). */
function nodeDepth(root: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isMap(node) || isSeq(node)) {
      max = Math.max(max, depth);
      if (max > LIMITS.maxDepth) return max;
      for (const item of node.items as unknown[]) {
        if (isScalar(item) || isMap(item) || isSeq(item)) stack.push([item, depth + 1]);
        else if (item && typeof item === "object" && "value" in item) stack.push([(item as { value: unknown }).value, depth + 1]);
      }
    }
  }
  return max;
}

/**
 * One YAML document, bounded: size, flow depth, node depth and aliases. A later duplicate key
 * wins, as with the upstream writers (PyYAML keeps the last; the shell appends lifecycle keys).
 * `what` names the text in messages ("The file", "original_message").
 */
export function parseYamlBounded(text: string, what = "The file"): ParsedYaml {
  if (Buffer.byteLength(text, "utf8") > LIMITS.maxYamlBytes) {
    return { data: null, doc: null, problem: limitProblem(`${what} is larger than ${LIMITS.maxYamlBytes} bytes; its YAML was not parsed.`) };
  }
  if (flowDepth(text) > LIMITS.maxDepth) {
    return { data: null, doc: null, problem: limitProblem(`${what} nests deeper than ${LIMITS.maxDepth} levels; its YAML was not parsed.`) };
  }
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` (line ${pos.line}, column ${pos.col})` : "";
    const reason = (first.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    return { data: null, doc: null, problem: parseProblem(`${what} is not valid YAML${where}: ${sentence(reason)}`) };
  }
  if (nodeDepth(doc.contents as Node | null) > LIMITS.maxDepth) {
    return { data: null, doc: null, problem: limitProblem(`${what} nests deeper than ${LIMITS.maxDepth} levels; its YAML was not parsed.`) };
  }
  try {
    return { data: toPlain(doc.toJS({ maxAliasCount: LIMITS.maxAliasCount, mapAsMap: true }), 0), doc, problem: null };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { data: null, doc: null, problem: limitProblem(`${what} could not be expanded: ${sentence(reason)}`) };
  }
}

/**
 * UTF-8 byte offsets of ascending string indexes into `text` (the parser counts UTF-16 units,
 * entries are located in bytes), in one pass over the text.
 */
export function byteOffsets(text: string, indexes: readonly number[]): number[] {
  const out: number[] = [];
  let charAt = 0;
  let byteAt = 0;
  for (const index of indexes) {
    byteAt += Buffer.byteLength(text.slice(charAt, index), "utf8");
    charAt = index;
    out.push(byteAt);
  }
  return out;
}

/** Plain JSON values only (no Map/Date/bigint/NaN), cut at the depth limit. */
export function toPlain(value: unknown, depth: number): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= LIMITS.maxDepth) return null;
  if (Array.isArray(value) || value instanceof Set) return Array.from(value, (v) => toPlain(v, depth + 1));
  if (value instanceof Map) return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), toPlain(v, depth + 1)]));
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v, depth + 1)]));
  return String(value);
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
