// The SQL floor of a load, for scripts/bench-entry-fill.ts --writes: every write statement a load
// runs on a connection, by transaction, replayed alone into another journal. What the replay takes
// is the write lock a load would still hold were its rows built elsewhere (its lookups, settling and
// row building done off the lock, on another thread).
import type { Database, Statement } from "better-sqlite3";
import { cpuSeconds } from "./sql-cpu";

/** One write statement as run: its SQL text and the values bound (copied: callers reuse their arrays). */
type Write = [sql: string, args: unknown[]];

const copied = (a: unknown) => (Array.isArray(a) ? a.slice() : a && typeof a === "object" && !Buffer.isBuffer(a) ? { ...a } : a);

/**
 * Record the writes of `db`'s transactions until `stop()` (every connection's statements share a
 * prototype: record only while one of this connection's transactions runs). Each element of
 * `transactions` is one transaction.
 */
export function recordWrites(db: Database): { transactions: Write[][]; stop: () => void } {
  const transactions: Write[][] = [];
  let current: Write[] | null = null;
  const proto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, unknown>;
  const originals = new Map<string, unknown>([["run", proto.run], ["get", proto.get], ["all", proto.all]]);
  const { transaction: ownTransaction } = db;
  for (const [name, o] of originals) {
    const original = o as (...a: unknown[]) => unknown;
    proto[name] = function (this: { readonly: boolean; source: string; database: Database }, ...a: unknown[]) {
      if (current && !this.readonly && this.database === db) current.push([this.source, a.map(copied)]);
      return original.apply(this, a);
    };
  }
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...a: unknown[]) => unknown) => {
    const wrapped = transaction(fn);
    return Object.assign((...a: unknown[]) => {
      // A transaction inside another is part of it (a savepoint).
      if (current) return wrapped(...a);
      transactions.push((current = []));
      try {
        return wrapped(...a);
      } finally {
        current = null;
      }
    }, wrapped);
  }) as typeof db.transaction;
  const stop = () => {
    for (const [name, original] of originals) proto[name] = original;
    db.transaction = ownTransaction;
  };
  return { transactions, stop };
}

/** Run `transactions` on `db` (a journal as empty as the recorded one was), each in one transaction, as recorded. */
export function replayWrites(db: Database, transactions: readonly Write[][]): { wallS: number; cpuS: number; longestMs: number } {
  const prepared = new Map<string, Statement<unknown[]>>();
  const cpu0 = cpuSeconds();
  const wall0 = performance.now();
  let longestMs = 0;
  for (const writes of transactions) {
    const t0 = performance.now();
    db.exec("BEGIN");
    for (const [sql, args] of writes) {
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = db.prepare<unknown[]>(sql)));
      // An UPDATE … RETURNING returns rows: run() refuses such a statement.
      if (statement.reader) statement.all(...args);
      else statement.run(...args);
    }
    db.exec("COMMIT");
    longestMs = Math.max(longestMs, performance.now() - t0);
  }
  return { wallS: (performance.now() - wall0) / 1000, cpuS: cpuSeconds() - cpu0, longestMs };
}
