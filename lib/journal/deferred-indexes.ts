import "server-only";
import type { Db } from "./db";

// A first scan inserts 100,000 rows into an empty journal. Maintaining a dozen indexes row by row
// costs several times the inserts themselves; building each once afterwards is a sort. The set-aside
// definitions live in the journal, so a crash mid-load is repaired by the next open.

/** Drop the secondary indexes of `tables` but those in `except`, keeping their definitions in deferred_indexes. */
export function deferIndexes(db: Db, tables: readonly string[], except: readonly string[] = []): void {
  db.transaction(() => {
    const indexes = (
      db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
          AND tbl_name IN (${tables.map(() => "?").join(", ")})`)
        .all(...tables) as { name: string; sql: string }[]
    ).filter((i) => !except.includes(i.name));
    const keep = db.prepare("INSERT INTO deferred_indexes (name, sql) VALUES (?, ?) ON CONFLICT (name) DO NOTHING");
    for (const { name, sql } of indexes) {
      keep.run(name, sql);
      db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
    }
  })();
}

/** Build every deferred index again (in one transaction: all or none). Returns how many. */
export function restoreIndexes(db: Db): number {
  return db.transaction(() => {
    const deferred = db.prepare("SELECT name, sql FROM deferred_indexes").all() as { name: string; sql: string }[];
    for (const { sql } of deferred) db.exec(sql);
    db.prepare("DELETE FROM deferred_indexes").run();
    return deferred.length;
  })();
}
