import "server-only";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";

/** Each SQL text prepared once per connection and writer: preparing is most of the cost of a small statement. */
export function preparedOnce(db: Db): (text: string) => Statement {
  const statements = new Map<string, Statement>();
  return (text) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare(text);
      statements.set(text, stmt);
    }
    return stmt;
  };
}
