// YAML from untrusted text within PARSE_LIMITS, for every adapter. js-yaml builds an alias as a
// second reference to the same object (no copy), so loading is linear in the text; the limits are
// checked while it loads (values, depth, scalar aliases, merge keys) and while the result is made
// plain (object aliases), before anything is expanded. Pure; safe in the browser too.
import { CORE_SCHEMA, DEFAULT_SCHEMA, load, YAMLException, type LoadOptions, type State } from "js-yaml";
import { limitText, PARSE_LIMITS, ParseLimitError, toPlainBounded, type BoundedParse } from "./limits";

export interface BoundedYamlOptions {
  /** How a problem names the text, e.g. "YAML body". */
  what?: string;
  /**
   * "default": js-yaml's schema (timestamps become ISO strings, `<<` merge keys), what ingest has
   * always read; "core": YAML 1.2's core schema (dates stay text, no merge keys), as `yaml` reads.
   */
  schema?: "default" | "core";
  limits?: Partial<Limits>;
}

type Limits = { -readonly [K in keyof typeof PARSE_LIMITS]: number };

/** Parse `text` as one YAML document within the limits. Never throws on any input. */
export function parseYamlBounded(text: string, opts: BoundedYamlOptions = {}): BoundedParse {
  const what = opts.what ?? "YAML body";
  const limits: Limits = { ...PARSE_LIMITS, ...opts.limits };
  let values = 0;
  let depth = 0;
  let aliases = 0;
  let aliasChars = 0;
  const listener = (event: "open" | "close", state: State) => {
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
    schema: opts.schema === "core" ? CORE_SCHEMA : DEFAULT_SCHEMA,
    listener,
    // js-yaml's own caps, kept as a backstop behind the listener's (it checks depth first).
    maxDepth: limits.depth + 1,
    // Each merge copies the keys of the map it names; 10,000 copies in all is js-yaml's default.
    maxTotalMergeKeys: 10_000,
  };
  try {
    const loaded: unknown = load(text, options);
    const budget = { what, aliases: limits.aliases - aliases, aliasChars: limits.aliasChars - aliasChars, values: limits.values };
    return { ok: true, data: toPlainBounded(loaded, budget) };
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
