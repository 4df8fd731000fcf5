// The floors of `npm run bench -- --stages` (lib/bench/stages.ts): for each stage of a first ingest,
// the simplest code that does the same work on this machine, with none of Mailroom's safety or
// bookkeeping. Mailroom's time over its floor's is what that safety and bookkeeping cost.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Db } from "@/lib/journal/db";
import type { FileRecord } from "@/lib/journal/writer";

/** Every regular file under `dir`: a bare recursive readdir with the entries' types. */
export function readdirFloor(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) readdirFloor(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Read each file whole; the bytes read (the buffers are let go). */
export function readFloor(files: readonly string[]): number {
  let bytes = 0;
  for (const f of files) bytes += fs.readFileSync(f).length;
  return bytes;
}

/**
 * What any parser of these files has to do, at native speed: decode the bytes, split the header
 * lines into names and values, and build the result from a structured body. The body's part is
 * JSON.parse of the parsed message as JSON (made before the clock starts): V8's own parser, the
 * fastest way to a JS object there is, standing in for the bounded YAML read.
 */
export function parseFloor(bytes: readonly Buffer[], asJson: readonly string[]): number {
  let fields = 0;
  for (const [i, b] of bytes.entries()) {
    const text = b.toString("utf8");
    const cut = text.indexOf("\n\n");
    const headers = new Map<string, string>();
    for (const line of text.slice(0, cut < 0 ? text.length : cut).split("\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    const parsed = JSON.parse(asJson[i] ?? "null") as Record<string, unknown> | null;
    fields += headers.size + (parsed ? Object.keys(parsed).length : 0);
  }
  return fields;
}

/** Each record as an array of its values under a unique key: the least a row needs. */
export function rowsFloor(records: readonly FileRecord[]): unknown[][] {
  return records.map((r) => [
    `${r.source}:${r.originPath}`, r.source, r.protocol, r.relPath, r.placement.agent, r.placement.folder,
    r.found.mtimeMs, r.found.size, r.found.ino,
    ...Object.values(r.parsed).map((v) => (v !== null && typeof v === "object" ? JSON.stringify(v) : v)),
  ]);
}

/** A bare SQLite file with the journal's page size and the pragmas of its connections (lib/journal/db.ts). */
export function openBare(file: string): Db {
  const db = new Database(file);
  db.pragma("page_size = 16384");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("temp_store = MEMORY");
  return db;
}

/** `name` with `journal`'s columns and declared types, and nothing else (no constraints, no indexes). */
export function bareTable(bare: Db, journal: Db, name: string): void {
  const columns = journal.pragma(`table_info(${name})`) as { name: string; type: string; pk: number }[];
  bare.exec(`CREATE TABLE ${name} (${columns.map((c) => `"${c.name}" ${c.pk ? "INTEGER PRIMARY KEY" : c.type}`).join(", ")})`);
}

/** A row of `messages` and what goes with it (the file's bytes, the first-seen event). */
export interface BareRow {
  values: unknown[];
  raw: Buffer | null;
  headOnly: number;
  key: string;
  atMs: number;
  detail: string;
}

/**
 * Prepared INSERTs of the same rows (`columns`: their values' order) into bare tables, one
 * transaction a batch as the load's, with a worker connection's cache (they insert the first fill).
 */
export function insertFloor(bare: Db, columns: readonly string[], batches: readonly (readonly BareRow[])[]): number {
  bare.pragma("cache_size = -4096");
  const insert = bare.prepare(`INSERT INTO messages (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
  const raw = bare.prepare("INSERT INTO message_raw (id, raw, head_only) VALUES (?, ?, ?)");
  const seen = bare.prepare("INSERT INTO events (key, at_ms, kind, detail) VALUES (?, ?, 'seen', ?)");
  const write = bare.transaction((part: readonly BareRow[]) => {
    for (const r of part) {
      const id = insert.run(...r.values).lastInsertRowid;
      if (r.raw !== null) raw.run(id, r.raw, r.headOnly);
      seen.run(r.key, r.atMs, r.detail);
    }
  });
  for (const batch of batches) write(batch);
  return batches.reduce((n, b) => n + b.length, 0);
}

/** The same CREATE INDEX statements, alone, in one transaction, with the main connection's cache. */
export function indexFloor(bare: Db, statements: readonly string[]): number {
  bare.pragma("cache_size = -98304");
  bare.transaction(() => statements.forEach((sql) => bare.exec(sql)))();
  return statements.length;
}

/** The journal's own FTS5 table (its definition as given), every body inserted in one statement. */
export function fullTextFloor(bare: Db, ftsDefinition: string): number {
  bare.pragma("cache_size = -4096");
  bare.exec(ftsDefinition);
  return Number(bare.prepare("INSERT INTO messages_fts (rowid, body) SELECT id, body FROM messages").run().changes);
}
