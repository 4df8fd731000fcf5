import "server-only";
import type { Db } from "./db";

// A first scan inserts 100,000 rows into an empty journal. Maintaining a dozen indexes row by row
// costs several times the inserts themselves; building each once afterwards is a sort. The set-aside
// definitions live in the journal, so a crash mid-load is repaired by the next open. The same
// goes for a trigger whose work a load does in bulk (see BulkInserter).

/**
 * Drop the secondary indexes of `tables` but those in `keep`, and the triggers named in
 * `triggers`, keeping their definitions in deferred_indexes (one transaction: all or none).
 */
export function deferIndexes(db: Db, tables: readonly string[], opts: { keep?: readonly string[]; triggers?: readonly string[] } = {}): void {
  const keep = opts.keep ?? [];
  const triggers = opts.triggers ?? [];
  db.transaction(() => {
    const deferred = (
      db
        .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL
          AND ((type = 'index' AND tbl_name IN (${tables.map(() => "?").join(", ")}))
            OR (type = 'trigger' AND name IN (${triggers.map(() => "?").join(", ") || "NULL"})))`)
        .all(...tables, ...triggers) as { type: "index" | "trigger"; name: string; sql: string }[]
    ).filter((i) => !keep.includes(i.name));
    const save = db.prepare("INSERT INTO deferred_indexes (name, sql) VALUES (?, ?) ON CONFLICT (name) DO NOTHING");
    for (const { type, name, sql } of deferred) {
      save.run(name, sql);
      db.exec(`DROP ${type === "index" ? "INDEX" : "TRIGGER"} "${name.replace(/"/g, '""')}"`);
    }
  })();
}

/** Build every deferred index and trigger again (in one transaction: all or none). Returns their names. */
export function restoreIndexes(db: Db): string[] {
  // A journal from before deferred indexes existed (migration 6) has none set aside.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'deferred_indexes'").get()) return [];
  // Nothing set aside (nearly always): no write, so a journal that cannot be written still opens for reading.
  if (!db.prepare("SELECT 1 FROM deferred_indexes LIMIT 1").get()) return [];
  return db.transaction(() => {
    const deferred = db.prepare("SELECT name, sql FROM deferred_indexes").all() as { name: string; sql: string }[];
    for (const { sql } of deferred) db.exec(sql);
    db.prepare("DELETE FROM deferred_indexes").run();
    return deferred.map((d) => d.name);
  })();
}
