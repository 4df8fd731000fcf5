// Completion for the search box, as pure functions: what to offer for the word under the cursor.
import { FIELDS, HAS_VALUES, IS_VALUES, type SearchWords } from "@/lib/query";

/** The values GET /api/facets offers (the same shape as lib/journal's Facets). */
export interface FacetValues {
  agents: string[];
  types: string[];
  priorities: string[];
  threads: string[];
  sources: string[];
  protocols: string[];
}

export const NO_FACETS: FacetValues = { agents: [], types: [], priorities: [], threads: [], sources: [], protocols: [] };

export interface Suggestion {
  /** What the option shows: `type:` or `task_assignment`. */
  label: string;
  /** The text that replaces the word under the cursor: `type:` or `-type:task_assignment`. */
  insert: string;
  /** What kind of thing it is, shown beside the label: "field", "agent", "status"… */
  hint: string;
}

export interface Completion {
  /** The word being completed is q.slice(from, to). */
  from: number;
  to: number;
  items: Suggestion[];
}

const FIELD_HINTS: Partial<Record<string, string>> = {
  from: "sender", to: "recipient", agent: "queue owner", type: "message type", priority: "priority",
  status: "status", thread: "thread id", repo: "repository", issue: "issue", folder: "folder",
  mid: "Message-ID", path: "file path", before: "date", after: "date", is: "flag", has: "property", retries: "retry count",
  protocol: "protocol", source: "source id",
};

const MAX_VALUES = 12;
const EMPTY = (at: number): Completion => ({ from: at, to: at, items: [] });

/** `-15m`, `-1h`, … and today's date (UTC), for before:/after:. */
function dateValues(now: number): string[] {
  return ["-15m", "-1h", "-6h", "-1d", "-7d", new Date(now).toISOString().slice(0, 10)];
}

function valuesFor(field: string, facets: FacetValues, words: SearchWords, now: number): { values: readonly string[]; hint: string } | null {
  switch (field) {
    case "from":
    case "to":
      // The dead-letter queue holds messages: it never sends or receives one.
      return { values: facets.agents.filter((a) => a !== "dead_letter"), hint: "agent" };
    case "agent":
      return { values: facets.agents, hint: "agent" };
    case "type":
      return { values: facets.types, hint: "type" };
    case "priority":
      return { values: facets.priorities, hint: "priority" };
    case "thread":
      return { values: facets.threads, hint: "recent thread" };
    case "status":
      return { values: words.statuses, hint: "status" };
    case "folder":
      return { values: words.folders, hint: "folder" };
    case "protocol":
      // The protocols the journal holds: the others would match nothing.
      return { values: facets.protocols, hint: "protocol" };
    case "source":
      return { values: facets.sources, hint: "source" };
    case "is":
      return { values: IS_VALUES, hint: "flag" };
    case "has":
      return { values: HAS_VALUES, hint: "property" };
    case "before":
    case "after":
      return { values: dateValues(now), hint: "date" };
    default:
      return null;
  }
}

/**
 * The value typed in full first (Tab must not swap `thr_readme_4` for `thr_readme_42`), then values
 * that start with the prefix, then values that contain it; case-insensitive.
 */
function rank(values: readonly string[], prefix: string): string[] {
  const p = prefix.toLowerCase();
  const exact = values.filter((v) => v.toLowerCase() === p);
  const starts = values.filter((v) => v.toLowerCase() !== p && v.toLowerCase().startsWith(p));
  const contains = p ? values.filter((v) => !v.toLowerCase().startsWith(p) && v.toLowerCase().includes(p)) : [];
  return [...exact, ...starts, ...contains];
}

const quoted = (value: string) => (/[\s"]/.test(value) ? `"${value.replace(/"/g, "")}"` : value);

/**
 * Where the word under the cursor starts and ends, split as the parser splits words: a quoted
 * part keeps its spaces (`from:"Ops T|` is one word), and an unclosed quote runs to the end.
 */
function wordAt(q: string, at: number): { from: number; to: number } {
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i] ?? "")) {
      if (i >= at) break;
      i++;
      continue;
    }
    const start = i;
    while (i < q.length && !/\s/.test(q[i] ?? "")) {
      const close = q[i] === '"' ? q.indexOf('"', i + 1) : i;
      i = close < 0 ? q.length : close + 1;
    }
    if (start <= at && at <= i) return { from: start, to: i };
  }
  return { from: at, to: at };
}

/**
 * What to offer for the word under the cursor: field names (`ty` → `type:`), or values of a
 * field (`status:de` → `dead`, `-from:lea` → `-from:leader`). Nothing inside a quoted phrase.
 * `words`: the status and folder words the catalogs define (useVocabulary()).
 */
export function complete(q: string, cursor: number, facets: FacetValues, words: SearchWords, now: number = Date.now()): Completion {
  const at = Math.max(0, Math.min(cursor, q.length));
  const quotesBefore = (q.slice(0, at).match(/"/g) ?? []).length;
  const { from, to } = wordAt(q, at);
  if (quotesBefore % 2 === 1 && !/:"[^"]*$/.test(q.slice(from, at))) return EMPTY(at);

  const word = q.slice(from, at);
  const negate = word.startsWith("-");
  const body = negate ? word.slice(1) : word;
  const sign = negate ? "-" : "";
  const colon = body.indexOf(":");

  if (colon < 0) {
    // The field is already typed after the cursor (`-|status:dead`): a field name would replace the whole word.
    if (/^retries[<>=]/.test(body) || /[:<>=]/.test(q.slice(at, to))) return { from, to, items: [] };
    const items = FIELDS.filter((f) => f.startsWith(body.toLowerCase())).map((f) => {
      const label = f === "retries" ? "retries>" : `${f}:`;
      return { label, insert: sign + label, hint: FIELD_HINTS[f] ?? "field" };
    });
    return { from, to, items };
  }

  const field = body.slice(0, colon).toLowerCase();
  const typed = body.slice(colon + 1).replace(/^"/, "");
  const known = valuesFor(field, facets, words, now);
  if (!known) return { from, to, items: [] };
  const ranked = rank(known.values, typed);
  // Nothing to add when the value is already complete.
  if (ranked.length === 1 && ranked[0] === typed) return { from, to, items: [] };
  const items = ranked.slice(0, MAX_VALUES).map((v) => ({ label: v, insert: `${sign}${field}:${quoted(v)}`, hint: known.hint }));
  return { from, to, items };
}

/** Puts a suggestion in place of the word; a finished value gets a space so the next word can start. */
export function applySuggestion(q: string, completion: Completion, s: Suggestion): { value: string; cursor: number } {
  const before = q.slice(0, completion.from);
  const after = q.slice(completion.to);
  const open = s.insert.endsWith(":") || s.insert.endsWith(">");
  const gap = open || /^\s/.test(after) ? "" : " ";
  const value = before + s.insert + gap + after;
  return { value, cursor: before.length + s.insert.length + (open ? 0 : 1) };
}
