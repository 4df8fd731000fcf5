// CPU per SQL text, for the bench scripts that ask which statements cost (APPEND_BY_SQL, FILL_BY_SQL).
import type { Database } from "better-sqlite3";

/** This process's CPU so far, user and system, in seconds. */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * CPU seconds spent in each SQL text's run/get/all on `db`'s statements from now on (every
 * connection's, as they share a prototype). With `transactions`, also each whole transaction of
 * `db.transaction`: COMMIT is run by better-sqlite3's wrapper, not by a statement of ours.
 */
export function timeStatements(db: Database, { transactions = false } = {}): Map<string, { cpu: number; calls: number }> {
  const totals = new Map<string, { cpu: number; calls: number }>();
  const add = (text: string, cpu: number) => {
    const t = totals.get(text) ?? { cpu: 0, calls: 0 };
    t.cpu += cpu;
    t.calls++;
    totals.set(text, t);
  };
  const proto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, unknown>;
  for (const name of ["run", "get", "all"]) {
    const original = proto[name] as (...a: unknown[]) => unknown;
    proto[name] = function (this: { source: string }, ...a: unknown[]) {
      const c0 = cpuSeconds();
      try {
        return original.apply(this, a);
      } finally {
        add(this.source, cpuSeconds() - c0);
      }
    };
  }
  if (!transactions) return totals;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...a: unknown[]) => unknown) => {
    const wrapped = transaction(fn);
    return Object.assign((...a: unknown[]) => {
      const c0 = cpuSeconds();
      try {
        return wrapped(...a);
      } finally {
        add("(a whole transaction, COMMIT and JavaScript included)", cpuSeconds() - c0);
      }
    }, wrapped);
  }) as typeof db.transaction;
  return totals;
}
