// YAML from untrusted text within PARSE_LIMITS: the one YAML path of every protocol (IGNITE v3
// bodies, IGNITE v2 files, shogun inboxes and documents, the writers' round-trip checks). js-yaml
// builds an alias as a second reference to the same object (no copy), so loading is linear in the
// text; the limits are checked while it loads (values, depth, scalar aliases, merge keys) and while
// the result is made plain (object aliases), before anything is expanded. Not `yaml`: within a 1 MiB
// cap it still took 4.2 s over a 262,000-item list and 3.2 s over 200,000 aliases, and overflowed
// its stack on 1,400 nested block maps (js-yaml: 124 ms, 192 ms, 7 ms). Pure; safe in the browser.
import type { YamlValue } from "@/lib/model";
import { CORE_SCHEMA, DEFAULT_SCHEMA, load, YAMLException, type LoadOptions, type State } from "js-yaml";
import type { EntryProblem } from "./entries";
import { PYYAML_SCHEMA } from "./pyyaml-schema";
import { limitText, PARSE_LIMITS, ParseLimitError, toPlainBounded, type BoundedParse } from "./limits";

export interface BoundedYamlOptions {
  /** How a problem names the text, e.g. "YAML body". */
  what?: string;
  /**
   * "default": js-yaml's schema (timestamps become ISO strings, `<<` merge keys), what ingest has
   * always read; "core": YAML 1.2's core schema (dates stay text, no merge keys), as `yaml` reads;
   * "pyyaml": YAML 1.1 as PyYAML's safe_load reads plain scalars (pyyaml-schema.ts), for its files.
   */
  schema?: "default" | "core" | "pyyaml";
  limits?: Partial<Limits>;
  /** Refuse longer text unparsed (UTF-16 units), for files re-read whole on each change. */
  maxChars?: number;
  /** Also give the character ranges of the items of each top-level list (`messages:`), for entry spans. */
  itemRanges?: boolean;
}

/** [start, end) character offsets of each item of a top-level key's list; `end` takes in the item's line break. */
export type ItemRanges = Map<string, Array<[number, number]>>;

export type BoundedYaml = (BoundedParse & { ok: false }) | { ok: true; data: YamlValue; items?: ItemRanges };

type Limits = { -readonly [K in keyof typeof PARSE_LIMITS]: number };

/** Parse `text` as one YAML document within the limits. Never throws on any input. */
export function parseYamlBounded(text: string, opts: BoundedYamlOptions = {}): BoundedYaml {
  const what = opts.what ?? "YAML body";
  const limits: Limits = { ...PARSE_LIMITS, ...opts.limits };
  if (opts.maxChars !== undefined && text.length > opts.maxChars) {
    return { ok: false, limit: true, problem: new ParseLimitError(what, limitText.chars(opts.maxChars)).message };
  }
  const ranges = opts.itemRanges ? itemRangeRecorder() : null;
  let values = 0;
  let depth = 0;
  let aliases = 0;
  let aliasChars = 0;
  const listener = (event: "open" | "close", state: State) => {
    ranges?.(event, state, depth);
    if (event === "open") {
      if (++values > limits.values) throw new ParseLimitError(what, limitText.values(limits.values));
      if (++depth > limits.depth) throw new ParseLimitError(what, limitText.depth(limits.depth));
      return;
    }
    depth--;
    // An alias node is the one node js-yaml closes with a result but no kind and no tag. Objects
    // it aliases are counted as they are expanded (toPlainBounded); scalars only here.
    const result: unknown = state.result;
    if (state.kind === null && (state as State & { tag?: unknown }).tag == null && typeof result === "string") {
      if (++aliases > limits.aliases) throw new ParseLimitError(what, limitText.aliases(limits.aliases));
      if ((aliasChars += result.length) > limits.aliasChars) throw new ParseLimitError(what, limitText.aliasChars(limits.aliasChars));
    }
  };
  const options: LoadOptions & { maxDepth: number; maxTotalMergeKeys: number } = {
    // json: a later duplicate key wins, as with upstream writers (PyYAML, shell).
    json: true,
    schema: opts.schema === "core" ? CORE_SCHEMA : opts.schema === "pyyaml" ? PYYAML_SCHEMA : DEFAULT_SCHEMA,
    listener,
    // js-yaml's own caps, kept as a backstop behind the listener's (it checks depth first).
    maxDepth: limits.depth + 1,
    // Each merge copies the keys of the map it names; 10,000 copies in all is js-yaml's default.
    maxTotalMergeKeys: 10_000,
  };
  try {
    const loaded: unknown = load(text, options);
    const budget = { what, aliases: limits.aliases - aliases, aliasChars: limits.aliasChars - aliasChars, values: limits.values };
    const data = toPlainBounded(loaded, budget);
    return ranges ? { ok: true, data, items: ranges.done() } : { ok: true, data };
  } catch (err) {
    if (err instanceof ParseLimitError) return { ok: false, limit: true, problem: err.message };
    if (!(err instanceof YAMLException)) throw err;
    if (/^merge keys exceeded/.test(err.reason)) {
      return { ok: false, limit: true, problem: new ParseLimitError(what, "more than 10,000 keys copied by `<<` merges").message };
    }
    if (/^nesting exceeded/.test(err.reason)) return { ok: false, limit: true, problem: new ParseLimitError(what, limitText.depth(limits.depth)).message };
    return { ok: false, limit: false, reason: err.reason || "it does not parse", ...where(text, err.mark) };
  }
}

/**
 * Follows the listener's events (depth before an open is counted): the root is depth 1, its keys
 * and values depth 2, a value's items depth 3. A depth-2 node closing as a sequence owns the
 * depth-3 nodes since it opened, under the key closed just before it (a later duplicate key wins).
 */
function itemRangeRecorder() {
  const out: ItemRanges = new Map();
  let key: string | null = null;
  let items: Array<[number, number]> = [];
  let start = 0;
  const record = (event: "open" | "close", state: State, depthBefore: number) => {
    const depth = event === "open" ? depthBefore + 1 : depthBefore;
    if (depth === 2 && event === "open") items = [];
    else if (depth === 3 && event === "open") start = state.position;
    else if (depth === 3) items.push([start, state.position]);
    else if (depth === 2) {
      const result: unknown = state.result;
      if (state.kind === "sequence" && key !== null) out.set(key, items);
      key = state.kind === "scalar" && typeof result === "string" ? result : null;
    }
  };
  return Object.assign(record, { done: () => out });
}

export interface YamlFile {
  data: YamlValue | null;
  problem: EntryProblem | null;
  items: ItemRanges;
}

/**
 * A whole file of the wave-2 protocols (IGNITE v2 messages, shogun inboxes and documents) or a
 * text the writers check, as `yaml` read them: YAML 1.2's core schema (dates stay text, `<<` is a
 * key), a later duplicate key wins (upstream's PyYAML keeps the last; the shell appends lifecycle
 * keys), and no text over PARSE_LIMITS.documentBytes, since these files are re-read whole on each
 * change. `what` names the text in problems ("The file", "The original_message"). `schema: "pyyaml"`
 * reads plain scalars as PyYAML does, for files its writers make (shogun's).
 */
export function parseYamlFile(text: string, what = "The file", opts: { itemRanges?: boolean; schema?: "core" | "pyyaml" } = {}): YamlFile {
  const r = parseYamlBounded(text, { what, schema: "core", maxChars: PARSE_LIMITS.documentBytes, ...opts });
  return r.ok ? { data: r.data, problem: null, items: r.items ?? new Map() } : { data: null, problem: yamlProblem(r, what), items: new Map() };
}

/**
 * A message body's YAML as the detail view, compose and the requeue editor read it: YAML 1.2's
 * core schema (dates stay text), within PARSE_LIMITS; `error` says where and why it does not parse.
 */
export function parseBodyYaml(body: string): { data: YamlValue | null; error: string | null } {
  const r = parseYamlBounded(body, { schema: "core" });
  return r.ok ? { data: r.data, error: null } : { data: null, error: yamlProblem(r, "The body").message };
}

/** A file's problem from a YAML parse that failed: the limit it hit, or where and why it does not parse. */
export function yamlProblem(r: BoundedParse & { ok: false }, what: string): EntryProblem {
  if (r.limit) return { code: "limit", message: r.problem };
  const where = r.line !== null ? ` (line ${r.line}, column ${r.column ?? 1})` : "";
  return { code: "parse", message: `${what} is not valid YAML${where}: ${sentence(r.reason)}` };
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * 1-based line and column of an error. js-yaml reads the text with a line break added, so an error
 * at its end ("a: [") is placed at the end of the last line written, not on a line after it.
 */
function where(text: string, mark: YAMLException["mark"] | undefined): { line: number | null; column: number | null } {
  if (!mark) return { line: null, column: null };
  if (mark.position < text.length) return { line: mark.line + 1, column: mark.column + 1 };
  const lastBreak = text.trimEnd().lastIndexOf("\n");
  const line = text.slice(0, lastBreak + 1).split("\n").length;
  return { line, column: text.trimEnd().length - lastBreak };
}
