import { VOCABULARY } from "@/lib/protocols";
import type { Term, TextField } from "@/lib/query";
import { groupString } from "@/lib/threads/ids";
import { ftsPhrase, MIN_INDEXED_TERM } from "./fulltext";

export interface SqlFilter {
  where: string;
  params: unknown[];
}

/** is:dead: the status dead letters carry, and the messages they hold with them (each catalog's deadLetterStatus). */
const DEAD = VOCABULARY.deadLetterStatuses;

const COLUMN: Record<Exclude<TextField, "to" | "mid" | "path" | "thread">, string> = {
  from: "from_name",
  agent: "agent",
  type: "type",
  priority: "priority",
  status: "status",
  repo: "repository",
  issue: "issue",
  folder: "folder",
  protocol: "protocol",
  source: "source",
};

/** `*` in a value is a wildcard; everything else matches exactly. */
function match(column: string, value: string): SqlFilter {
  if (value.includes("*")) {
    const glob = value.replace(/[[\]?]/g, (c) => `[${c}]`);
    return { where: `${column} GLOB ?`, params: [glob] };
  }
  return { where: `${column} = ?`, params: [value] };
}

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface FilterOptions {
  /** The full-text index is built: text terms of 3+ characters use it. */
  fullText: boolean;
}

function termSql(t: Term, opts: FilterOptions): SqlFilter {
  switch (t.kind) {
    case "field": {
      if (t.field === "to") {
        const m = match("value", t.value);
        return { where: `EXISTS (SELECT 1 FROM json_each(to_list) WHERE ${m.where})`, params: m.params };
      }
      if (t.field === "mid") {
        // With or without the angle brackets the stored IDs have (IGNITE's have them), typed or
        // not; mid:*@ignite.local as for every field.
        const bare = t.value.replace(/^<|>$/g, "");
        if (!bare.includes("*")) return { where: "message_id IN (?, ?)", params: [bare, `<${bare}>`] };
        const plain = match("message_id", bare);
        const bracketed = match("message_id", `<${bare}>`);
        return { where: `(${plain.where} OR ${bracketed.where})`, params: [...plain.params, ...bracketed.params] };
      }
      if (t.field === "path") {
        // A path matches anywhere in it: path:processed/ or path:leader/*.mime. Case-sensitive, as
        // paths are on disk and as GLOB is, with a wildcard or without (LIKE would fold ASCII case).
        return t.value.includes("*") ? match("path", `*${t.value}*`) : { where: "instr(path, ?) > 0", params: [t.value] };
      }
      if (t.field === "status") {
        // The lifecycle status only (the parser accepts no other word): a dead original's file
        // still states the status it had then, and it is not that any more.
        return { where: "status = ?", params: [t.value] };
      }
      if (t.field === "thread") {
        // Through the thread_key index (migration 24 dropped thread_id's): a message with a thread
        // id is in its own header thread (ownGroupOf), so the two terms match the same rows.
        const id = match("thread_id", t.value);
        const group = match("thread_key", groupString({ by: "header", threadId: t.value }));
        return { where: `${group.where} AND ${id.where}`, params: [...group.params, ...id.params] };
      }
      return match(COLUMN[t.field], t.value);
    }
    case "date":
      return { where: t.field === "before" ? "sort_ms < ?" : "sort_ms >= ?", params: [t.ms] };
    case "retries":
      return { where: `retry_count ${t.op} ?`, params: [t.n] };
    case "is":
      // Kept current by ingest (JournalWriter.refreshStuck), so it is indexed and polls see it change.
      if (t.value === "stuck") return { where: "stuck = 1", params: [] };
      if (t.value === "duplicate") return { where: "duplicate = 1", params: [] };
      if (t.value === "dead") return { where: `status IN (${DEAD.map(() => "?").join(", ")})`, params: [...DEAD] };
      return { where: "path IS NULL", params: [] };
    case "has":
      if (t.value === "problem") return { where: "problems != '[]'", params: [] };
      if (t.value === "thread") return { where: "thread_id IS NOT NULL", params: [] };
      if (t.value === "reply") return { where: "in_reply_to IS NOT NULL", params: [] };
      return { where: "retry_count > 0", params: [] };
    case "text":
      if (usesIndex(t, opts)) return fullTextSql([t.value]);
      // Before the index is built, or for 1–2 character terms: a scan, case-insensitive for ASCII.
      return { where: "body LIKE ? ESCAPE '\\'", params: [`%${likeEscape(t.value)}%`] };
  }
}

const usesIndex = (t: Term, opts: FilterOptions) => t.kind === "text" && opts.fullText && [...t.value].length >= MIN_INDEXED_TERM;

/**
 * Rows whose body holds every one of `values`: one MATCH, so FTS5 intersects the terms itself.
 * `+id` keeps SQLite from fetching every match by rowid and sorting them (22 ms for a term in a
 * sixth of 100,000 bodies): it walks the sort index instead and stops at the page's last row.
 */
function fullTextSql(values: string[]): SqlFilter {
  return { where: "+id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)", params: [values.map(ftsPhrase).join(" AND ")] };
}

/** AND of every term; a negated term also matches rows where the column is NULL. */
export function compileFilter(terms: Term[], opts: FilterOptions = { fullText: false }): SqlFilter {
  if (terms.length === 0) return { where: "1", params: [] };
  const together = terms.filter((t) => !t.negate && usesIndex(t, opts));
  const parts = terms.flatMap((t) => {
    if (together.length > 1 && together.includes(t)) {
      // All positive full-text terms as one clause, where the first of them stood.
      if (t !== together[0]) return [];
      const s = fullTextSql(together.map((x) => (x.kind === "text" ? x.value : "")));
      return [{ where: `(${s.where})`, params: s.params }];
    }
    const s = termSql(t, opts);
    return [{ where: t.negate ? `NOT COALESCE((${s.where}), 0)` : `(${s.where})`, params: s.params }];
  });
  return { where: parts.map((p) => p.where).join(" AND "), params: parts.flatMap((p) => p.params) };
}
