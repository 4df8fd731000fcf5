import "server-only";
import type { Db } from "./db";

/**
 * A value computed from the whole journal (stats, the dead-letter list), kept per connection and
 * computed again only once its version moves, so a poll with nothing changed costs one lookup.
 * Version and value are read in one transaction: the value is exactly as of its version.
 */
export class VersionedCache<T> {
  private readonly byDb = new WeakMap<Db, { version: string; value: T }>();

  constructor(
    private readonly versionOf: (db: Db) => string,
    private readonly compute: (db: Db) => T,
  ) {}

  get(db: Db): { version: string; value: T } {
    return db.transaction(() => {
      const version = this.versionOf(db);
      const last = this.byDb.get(db);
      if (last?.version === version) return last;
      const next = { version, value: this.compute(db) };
      this.byDb.set(db, next);
      return next;
    })();
  }
}
