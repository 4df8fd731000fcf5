// The core is protocol-neutral: outside lib/protocols/<name>/, no code spells a protocol's own
// folder, header or status. Statuses, columns, folders and headers come from the adapter through
// the contract (types.ts, index.ts, catalog.ts, lib/model.ts). This reads every non-test source file
// of the core and names each literal that breaks that rule, by file:line and word.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEAD_LETTER_FOLDER, type Protocol } from "@/lib/model";
import { CATALOGS } from "./catalog";
import { HEADER_PREFIX } from "./ignite";
import { GONE, type ProtocolCatalog } from "./catalog-types";
import { MIGRATIONS } from "@/lib/journal/schema";
import { HAS_VALUES, IS_VALUES } from "@/lib/query";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The core's folders. */
const CORE = ["lib/ingest", "lib/journal", "lib/threads", "lib/query", "lib/operations", "lib/demo", "lib/client", "components", "app"];

/** Files the rule does not hold, each with why. */
const EXEMPT: Record<string, string> = {
  // Never edited once shipped: their SQL ran on users' journals (see its header).
  "lib/journal/schema.ts": "versioned migrations",
  "lib/journal/schema-base.ts": "versioned migrations",
  "lib/journal/schema-sql.ts": "SQL the versioned migrations hold word for word (an index's expression, a table's fill)",
  // Test code that imports no vitest itself: the operations tests' harness, naming the IGNITE fixture's files.
  "lib/operations/test-harness.ts": "the IGNITE fixture's own paths, for tests",
};

/**
 * Words the core still spells, by file, each with why. The list only shrinks, but for a contract word
 * a protocol took as a status too: a word no longer found here fails the test until it is struck
 * off, and a word found anywhere else fails it at once.
 */
const KNOWN: Record<string, readonly string[]> = {
  // An unreadable entry's status (the entry core's; another change works in that file).
  "lib/journal/entry-rows.ts": ["invalid"],
  // The journal's event kinds "discarded" and "requeued" (the contract's LifecycleStep kinds), which are
  // also IGNITE's status words (a dead letter archived by a discard, or by a requeue); the statuses and
  // folders the lifecycle names come from the message's catalog.
  "lib/client/lifecycle.ts": ["discarded", "requeued"],
  // The event kind "requeued" (LifecycleStep): a thread's requeue edges.
  "lib/journal/threads.ts": ["requeued"],
  // The label of a requeue edge, in English.
  "components/thread/graph-model.ts": ["requeued"],
};

/**
 * The query language's own keywords (is:dead, has:retries): a user types them, so they are its words,
 * and the files that parse and compile it may spell them. What one matches comes from the catalogs
 * (filter.ts: is:dead finds each catalog's deadLetterStatus; filter.test.ts holds it).
 */
const QUERY_KEYWORDS = new Set<string>([...IS_VALUES, ...HAS_VALUES]);
const QUERY_LANGUAGE = new Set(["lib/query/parse.ts", "lib/journal/filter.ts"]);
const isQueryKeyword = (h: Hit) => QUERY_LANGUAGE.has(h.file) && QUERY_KEYWORDS.has(h.word);

/**
 * IGNITE v2 takes its status words from v3's catalog (ignite-yaml/statuses.ts) and its folders from
 * the same layout: for this rule the two are one protocol, so "retrying" is IGNITE's own word, not
 * one two protocols share.
 */
const FAMILY: Partial<Record<Protocol, Protocol>> = { "ignite-yaml": "ignite" };

/**
 * Words the contract itself owns, which the core may spell: the dead-letter area every adapter maps
 * its own folder to, the journal's status for an entry no file holds, and a status's state.
 */
const CONTRACT_WORDS = new Set<string>([DEAD_LETTER_FOLDER, GONE.id, "open", "done", "failed"]);

/**
 * Everyday words a protocol also uses as a status or folder, which the core spells in their own
 * sense: an error state or response, a paused or idle loop, the logs page, a file read.
 */
const EVERYDAY_WORDS = new Set(["error", "paused", "idle", "logs", "read"]);

/** A protocol's own header: IGNITE's X-IGNITE-… (the other protocols' files carry no headers; catalog `headers`). */
const PROTOCOL_HEADER = new RegExp(`\\b${HEADER_PREFIX}[A-Za-z-]*`, "i");

function catalogWords(c: ProtocolCatalog): string[] {
  return [...c.folders, ...c.statuses.map((s) => s.id), ...c.columns];
}

/** Each folder or status word exactly one protocol (family) uses, with that protocol. */
function ownWords(catalogs: readonly ProtocolCatalog[]): Map<string, Protocol> {
  const users = new Map<string, Set<Protocol>>();
  for (const c of catalogs) {
    const family = FAMILY[c.protocol] ?? c.protocol;
    for (const w of catalogWords(c)) users.set(w, (users.get(w) ?? new Set()).add(family));
  }
  const own = new Map<string, Protocol>();
  for (const [w, by] of users) if (by.size === 1 && !CONTRACT_WORDS.has(w) && !EVERYDAY_WORDS.has(w)) own.set(w, [...by][0] as Protocol);
  return own;
}

interface Hit {
  file: string;
  line: number;
  word: string;
}

/** The literal text pieces of a source file, with their lines: strings, template parts, JSX text. */
function literals(file: string, text: string): { text: string; line: number }[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

const SQL_QUOTED = /'([a-z][a-z0-9_-]*)'/g;
/** A folder spelt as a path in text ("in queue/dead_letter/"): the segment before a slash. */
const PATH_SEGMENT = /(?<=^|[\s/(`"'])([a-z][a-z0-9_-]*)\//g;

/** Where a file's literals name a protocol's own word: equal to it, quoted in SQL, or a protocol header. */
function protocolWordsIn(file: string, text: string, own: ReadonlyMap<string, Protocol>): Hit[] {
  const hits: Hit[] = [];
  for (const lit of literals(file, text)) {
    const header = PROTOCOL_HEADER.exec(lit.text);
    if (header) hits.push({ file, line: lit.line, word: header[0] });
    if (own.has(lit.text)) hits.push({ file, line: lit.line, word: lit.text });
    // In SQL, the dead-letter area is spelt through DEAD_LETTER_FOLDER too, so it has one name.
    else for (const m of lit.text.matchAll(SQL_QUOTED)) if (own.has(m[1] as string) || m[1] === DEAD_LETTER_FOLDER) hits.push({ file, line: lit.line, word: m[1] as string });
    // A path names the protocol's own folder, the dead-letter area's included (each protocol keeps its letters its own way).
    for (const m of lit.text.matchAll(PATH_SEGMENT)) if (own.has(m[1] as string) || m[1] === DEAD_LETTER_FOLDER) hits.push({ file, line: lit.line, word: `${m[1] as string}/` });
  }
  return hits;
}

/** A helper only tests import (a fixture that sets up vitest hooks) is test code too. */
const TEST_HELPER = /^import [^;]* from "vitest";$/m;

function sourceFiles(dir: string): { file: string; text: string }[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .filter((file) => !(file in EXEMPT))
    .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }))
    .filter(({ text }) => !TEST_HELPER.test(text));
}

describe("the core names no protocol's words", () => {
  const own = ownWords(CATALOGS);

  it("knows each protocol's own words from the catalogs, and not the contract's", () => {
    for (const w of ["retrying", "queued", "delivered", "cleared"]) expect(own.get(w)).toBe("ignite");
    for (const w of ["unread", "in_progress", "inbox"]) expect(own.get(w)).toBe("shogun");
    expect(own.get("unacked")).toBe("workflow");
    expect(own.get("unanswered")).toBe("kicklang");
    // Shared by more than one protocol, or the contract's own.
    for (const w of ["queue", "archive", "processed", "channel", "sent", DEAD_LETTER_FOLDER, GONE.id, "error"]) expect(own.has(w), w).toBe(false);
  });

  it("finds a status, a SQL-quoted status or dead-letter area, a folder in a path and a header, by line, and not in comments", () => {
    const text = [
      "// retrying in a comment is fine",
      'const a = s === "retrying";',
      "const q = `SELECT 1 WHERE status = 'queued' AND folder = 'queue'`;",
      'const h = "X-IGNITE-Thread-ID"; const d = "SELECT 1 WHERE folder = \'dead_letter\'";',
      "const x = <b title=\"in_progress\">unacked</b>;",
      "const p = <p>in <code>queue/dead_letter/</code> or `${root}/queue/inbox/`, a queue/ of its own</p>;",
    ].join("\n");
    expect(protocolWordsIn("x.tsx", text, own)).toEqual([
      { file: "x.tsx", line: 2, word: "retrying" },
      { file: "x.tsx", line: 3, word: "queued" },
      { file: "x.tsx", line: 4, word: "X-IGNITE-Thread-ID" },
      { file: "x.tsx", line: 4, word: DEAD_LETTER_FOLDER },
      { file: "x.tsx", line: 5, word: "in_progress" },
      { file: "x.tsx", line: 5, word: "unacked" },
      { file: "x.tsx", line: 6, word: "dead_letter/" },
      { file: "x.tsx", line: 6, word: "inbox/" },
    ]);
  });

  it("lets the query language spell its own keywords, and only there", () => {
    const keyword = [{ file: "lib/query/parse.ts", line: 1, word: "dead" }, { file: "lib/journal/filter.ts", line: 1, word: "dead" }];
    expect(keyword.every(isQueryKeyword)).toBe(true);
    expect(isQueryKeyword({ file: "lib/client/lifecycle.ts", line: 1, word: "dead" })).toBe(false);
    expect(isQueryKeyword({ file: "lib/journal/filter.ts", line: 1, word: "retrying" })).toBe(false);
  });

  const hits = CORE.flatMap(sourceFiles).flatMap(({ file, text }) => protocolWordsIn(file, text, own));

  it("holds for every core source file, but for the words still known", () => {
    const unknown = hits.filter((h) => !KNOWN[h.file]?.includes(h.word) && !isQueryKeyword(h));
    expect(unknown.map((h) => `${h.file}:${h.line} "${h.word}" (${own.get(h.word) ?? "header or dead-letter area"})`)).toEqual([]);
  });

  it("knows no word the core no longer spells", () => {
    const stale = Object.entries(KNOWN).flatMap(([file, words]) => words.filter((w) => !hits.some((h) => h.file === file && h.word === w)).map((w) => `${file} "${w}"`));
    expect(stale).toEqual([]);
  });

  it("finds the dead-letter area in the migrations as the contract names it", () => {
    // Their SQL is frozen (EXEMPT): the triggers and indexes it made must agree with the constant.
    const quoted = [...MIGRATIONS.join("\n").matchAll(/folder = '([a-z_]+)'/g)].map((m) => m[1]);
    expect(new Set(quoted.filter((w) => w !== "archive"))).toEqual(new Set([DEAD_LETTER_FOLDER]));
  });
});
