// A journal's rows, table by table, to compare two journals that should be the same.
import { openJournal } from "@/lib/journal/store";

const TABLES = ["messages", "events", "message_raw", "entries", "entry_refs", "entry_files", "agent_counts", "thread_last", "meta"];

/** Every row of the compared tables, row ids and seqs too. Sorted, as some tables have no rowid. */
export function dumpJournal(file: string): Record<string, string[]> {
  const db = openJournal(file).db;
  return Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all().map((r) => JSON.stringify(r)).sort()]));
}
