// summaryRows reads rows as arrays and names their values by position: the names must be
// SUMMARY_COLUMNS' own, in their order, or every list would show one field's value as another's.
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { openDb, type Db } from "./db";
import { SUMMARY_COLUMNS, summaryRows } from "./rows";

const temp = tempDirs();
let db: Db | null = null;
afterEach(() => db?.close());

it("names each value as better-sqlite3 names that column, for every summary column", () => {
  db = openDb(path.join(temp("mailroom-rows-"), "journal.db"));
  const columns = SUMMARY_COLUMNS.split(",").map((c) => c.trim());
  // Every column its own value (numbers where the schema counts), so a value named wrongly shows.
  const numeric = new Set(["stuck", "retry_count", "duplicate", "size", "updated_ms", "seq", "sort_ms"]);
  const values = Object.fromEntries(columns.map((c, i) => [c, numeric.has(c) ? 1000 + i : `${c}-value`]));
  db.prepare(`INSERT INTO messages (${columns.join(", ")}, last_path) VALUES (${columns.map((c) => `@${c}`).join(", ")}, 'p')`).run(values);

  const sql = `SELECT ${SUMMARY_COLUMNS} FROM messages`;
  const [row] = summaryRows(db, sql);
  expect(row).toEqual(db.prepare(sql).get());
  expect(Object.keys(row ?? {})).toEqual(columns);
});
