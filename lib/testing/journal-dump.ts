// A journal's rows, table by table, to compare two journals that should be the same.
import { openJournal } from "@/lib/journal/store";

const TABLES = ["messages", "events", "message_raw", "entries", "entry_refs", "entry_files", "agent_counts", "thread_last", "meta"];

/** Every row of the compared tables, row ids and seqs too. Sorted, as some tables have no rowid. */
export function dumpJournal(file: string): Record<string, string[]> {
  const db = openJournal(file).db;
  return Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all().map((r) => JSON.stringify(r)).sort()]));
}

/**
 * The same, without what a lane's merge gives anew (see lib/journal/lane.ts): row ids (bytes and
 * entry refs named by their row's key instead) and seqs, which only have to keep their order.
 */
export function dumpJournalByKey(file: string): Record<string, string[]> {
  const db = openJournal(file).db;
  const rows = (sql: string) => db.prepare(sql).all().map((r) => JSON.stringify(r)).sort();
  const without = (table: string, ...columns: string[]) => {
    const kept = (db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]).filter((c) => !columns.includes(c));
    return rows(`SELECT ${kept.join(", ")} FROM ${table}`);
  };
  return {
    messages: without("messages", "id", "seq"),
    events: without("events", "id"),
    message_raw: rows("SELECT m.key, r.raw, r.head_only FROM message_raw r JOIN messages m ON m.id = r.id"),
    entries: without("entries", "id"),
    entry_refs: rows("SELECT e.key, r.source, r.target FROM entry_refs r JOIN entries e ON e.id = r.entry"),
    entry_files: rows("SELECT * FROM entry_files"),
    agent_counts: rows("SELECT * FROM agent_counts"),
    thread_last: rows("SELECT * FROM thread_last"),
  };
}
