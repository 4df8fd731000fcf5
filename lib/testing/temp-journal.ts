// For journal tests: a new journal in its own temp folder, with a writer on the test's clock.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, type Db } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";

export interface TempJournal {
  /** The temp folder (the journal is `journal.sqlite` in it). */
  dir: string;
  db: Db;
  writer: JournalWriter;
  /** Close the journal and remove the folder. */
  close(): void;
}

/** `clock` is the writer's: a test that moves time keeps a variable and passes `() => now`. */
export function openTempJournal(clock: () => number = Date.now): TempJournal {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-journal-"));
  const db = openDb(path.join(dir, "journal.sqlite"));
  return {
    dir,
    db,
    writer: new JournalWriter(db, clock),
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
