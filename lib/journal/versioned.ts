import "server-only";
import type { Transaction } from "better-sqlite3";
import type { Db } from "./db";

const snapshots = new WeakMap<Db, Transaction<(read: () => unknown) => unknown>>();

/**
 * `read()` in one read transaction (one WAL snapshot), for a value kept under the seq it was read
 * at: a load's workers commit between statements, and a value mixed from two states must not be
 * kept as either. The transaction is made once per connection (making one prepares statements).
 */
export function inSnapshot<T>(db: Db, read: () => T): T {
  let snapshot = snapshots.get(db);
  if (!snapshot) {
    snapshot = db.transaction((fn: () => unknown) => fn());
    snapshots.set(db, snapshot);
  }
  return snapshot(read) as T;
}

interface Versioned<T> {
  version: string;
  value: T;
}

/**
 * A value computed from the whole journal (stats, the dead-letter list), kept per connection and
 * computed again only once its version moves, so a poll with nothing changed costs one lookup.
 * Version and value are read in one transaction: the value is exactly as of its version.
 */
export class VersionedCache<T> {
  private readonly kept = new WeakMap<Db, Versioned<T>>();

  constructor(
    private readonly versionOf: (db: Db) => string,
    /** `settled`: false inside a caller's transaction, whose rows may yet be rolled back (keep nothing from them). */
    private readonly compute: (db: Db, settled: boolean) => T,
  ) {}

  get(db: Db): Versioned<T> {
    // Inside a transaction the rows may yet be rolled back, and their seq taken again: never kept.
    if (db.inTransaction) return { version: this.versionOf(db), value: this.compute(db, false) };
    return inSnapshot(db, () => this.refresh(db));
  }

  private refresh(db: Db): Versioned<T> {
    const version = this.versionOf(db);
    const last = this.kept.get(db);
    if (last?.version === version) return last;
    const next = { version, value: this.compute(db, true) };
    this.kept.set(db, next);
    return next;
  }
}
