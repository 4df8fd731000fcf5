// The fill's SQL floor (scripts/bench-entry-fill.ts --writes) is only as true as its replay: the
// replay must make the same rows from the same writes, reads left out and transactions kept.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { recordWrites, replayWrites } from "./sql-writes";

const open = () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, bytes BLOB); CREATE TABLE seq (n INTEGER); INSERT INTO seq VALUES (0);");
  return db;
};
const dbs: Database.Database[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

describe("recordWrites and replayWrites", () => {
  it("replays each transaction's writes, reads left out, into the same rows", () => {
    const [a, b, other] = [open(), open(), open()];
    dbs.push(a, b, other);
    const { transactions: writes, stop } = recordWrites(a);
    const insert = a.prepare("INSERT INTO t (name, bytes) VALUES (?, ?)");
    const rows = [["x", Buffer.from("1")], ["y", Buffer.from("2")]];
    a.transaction(() => {
      for (const row of rows) insert.run(row);
      // The caller reuses its array: the recorded values are a copy.
      rows[0] = ["changed", Buffer.from("3")];
      a.prepare("SELECT count(*) FROM t").get();
      a.prepare("UPDATE seq SET n = n + 2 RETURNING n").get();
      other.prepare("INSERT INTO t (name) VALUES ('another connection')").run();
    })();
    a.transaction(() => a.prepare("INSERT INTO t (name) VALUES (@name)").run({ name: "z" }))();
    a.prepare("INSERT INTO t (name) VALUES ('outside any transaction')").run();
    stop();
    a.transaction(() => a.prepare("INSERT INTO t (name) VALUES ('after stop')").run())();

    expect(writes.map((w) => w.length)).toEqual([3, 1]);
    expect(replayWrites(b, writes).longestMs).toBeGreaterThanOrEqual(0);
    const all = (db: Database.Database) => db.prepare("SELECT name, bytes FROM t WHERE name NOT IN ('outside any transaction', 'after stop') ORDER BY id").all();
    expect(all(b)).toEqual(all(a));
    expect(b.prepare("SELECT n FROM seq").pluck().get()).toBe(2);
  });
});
