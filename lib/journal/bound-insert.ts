import "server-only";
import type { Statement } from "better-sqlite3";

/**
 * New rows as bound values, this many a statement at most (33 columns each stays under SQLite's
 * 32,766 host parameters): one statement per row cost a first fill a run of the statement, and its
 * bindings, for each of its 93,000 entries; `->>` over a JSON array parses each row again per column.
 */
const VALUES_ROWS = 512;

const valuesSql = (table: string, columns: readonly string[], rows: number) =>
  `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => "?").join(", ")})`).join(", ")}`;

/** New rows of `table`, in order, as bound values: statements of halving sizes for the rest, so few SQL texts are prepared. */
export function insertBound(sql: (text: string) => Statement, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): void {
  for (let at = 0; at < rows.length; ) {
    let n = VALUES_ROWS;
    while (n > rows.length - at) n /= 2;
    sql(valuesSql(table, columns, n)).run(rows.slice(at, at + n).flat());
    at += n;
  }
}
