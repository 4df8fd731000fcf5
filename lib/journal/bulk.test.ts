import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { openDb } from "./db";
import { makeKey } from "./keys";
import { JournalWriter } from "./writer";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

it("gives a file whose key is taken the next attempt's key, as the writer does", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bulk-"));
  dirs.push(dir);
  const db = openDb(path.join(dir, "journal.sqlite"));
  const writer = new JournalWriter(db, () => 5_000);
  const bulk = writer.beginBulkLoad();
  // Keys come from the origin path and Message-ID: two files sharing both start from the same key.
  const rec = fileRecord("queue/leader/same.mime", { messageId: "<same@x>" });
  const twin = { ...rec, relPath: "queue/leader/processed/same.mime", found: { mtimeMs: 2_000, size: 10, ino: 2 } };
  bulk?.add("ws-ignite", [rec, twin], 2);
  bulk?.finish("ws-ignite");
  const keys = db.prepare("SELECT key FROM messages ORDER BY id").pluck().all();
  expect(keys).toEqual([0, 1].map((attempt) => makeKey("ws-ignite", "queue/leader/same.mime", "<same@x>", attempt)));
  expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'seen'").pluck().get()).toBe(2);
  // One Message-ID in two files: finish() flags both, as the writer would.
  expect(db.prepare("SELECT duplicate FROM messages ORDER BY id").pluck().all()).toEqual([1, 1]);
  db.close();
});
