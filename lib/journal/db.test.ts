import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, openDb, unlessWriting } from "./db";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function journalFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-db-"));
  dirs.push(dir);
  return path.join(dir, "journal.db");
}

it("unlessWriting skips, without waiting, while another connection writes, and writes once it is done", () => {
  const file = journalFile();
  const db = openDb(file);
  const other = new Database(file);
  try {
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(unlessWriting(db, () => db.prepare("UPDATE meta SET value = value WHERE name = 'seq'").run().changes)).toBeNull();
    // Not SQLite's busy timeout: it gave up at once.
    expect(performance.now() - started).toBeLessThan(BUSY_TIMEOUT_MS / 2);
    expect(db.pragma("busy_timeout", { simple: true })).toBe(BUSY_TIMEOUT_MS);
    other.exec("COMMIT");
    expect(unlessWriting(db, () => db.prepare("UPDATE meta SET value = value WHERE name = 'seq'").run().changes)).toBe(1);
  } finally {
    other.close();
    db.close();
  }
});

it("unlessWriting lets any other failure through", () => {
  const db = openDb(journalFile());
  try {
    expect(() => unlessWriting(db, () => db.prepare("SELECT * FROM no_such_table").all())).toThrow(/no such table/);
    expect(db.pragma("busy_timeout", { simple: true })).toBe(BUSY_TIMEOUT_MS);
  } finally {
    db.close();
  }
});
