// Migration 27: the steps a stuck sweep wrote again each second (see upkeep.ts FILE_ROWS) are kept
// once; every other step, and a message stuck again later, stays.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate } from "./db";
import { SCHEMA_VERSION } from "./schema";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-repeated-steps-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("migration 27", () => {
  it("keeps one of each repeated overdue or stuck step, and every other step", () => {
    const db = new Database(path.join(dir, "journal.sqlite"));
    try {
      migrate(db, 26);
      const step = db.prepare("INSERT INTO events (key, at_ms, kind, detail, data) VALUES (?, ?, ?, ?, '{}')");
      step.run("a", 1, "seen", "first seen");
      for (let i = 0; i < 5; i++) step.run("a", 100, "overdue", "not settled by …100");
      step.run("a", 200, "overdue", "not settled by …200"); // a later stint: a step of its own
      for (let i = 0; i < 3; i++) step.run("b", 100, "stuck", "processing for more than 60 s");
      step.run("b", 100, "status", "processing → delivered");
      step.run("b", 100, "status", "processing → delivered"); // not a sweep's step: kept as written
      step.run("c", 100, "overdue", "not settled by …100");

      migrate(db);

      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      const left = db.prepare("SELECT key, at_ms AS at, kind FROM events ORDER BY id").all();
      expect(left).toEqual([
        { key: "a", at: 1, kind: "seen" },
        { key: "a", at: 100, kind: "overdue" },
        { key: "a", at: 200, kind: "overdue" },
        { key: "b", at: 100, kind: "stuck" },
        { key: "b", at: 100, kind: "status" },
        { key: "b", at: 100, kind: "status" },
        { key: "c", at: 100, kind: "overdue" },
      ]);
    } finally {
      db.close();
    }
  });
});
