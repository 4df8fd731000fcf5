// Each thread's last activity is kept by triggers (migration 11) for the thread list. Checked
// against a grouping of the messages table at each kind of change: a message joins a thread, moves
// to another, is re-dated, and is deleted (the group's last one, and the one that held its maximum).
import { afterEach, beforeEach, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import type { Db } from "./db";
import { JournalWriter } from "./writer";

let journal: TempJournal;
let db: Db;
beforeEach(() => {
  journal = openTempJournal();
  db = journal.db;
});
afterEach(() => journal.close());

const kept = () => db.prepare("SELECT thread_key, last_ms FROM thread_last ORDER BY 1").all();
const grouped = () => db.prepare("SELECT thread_key, max(sort_ms) AS last_ms FROM messages WHERE thread_key IS NOT NULL GROUP BY 1 ORDER BY 1").all();
const at = (s: number) => `2026-11-20T00:00:${String(s).padStart(2, "0")}.000Z`;

it("follows messages joining, leaving and deleted from threads", () => {
  const writer = new JournalWriter(db, () => Date.parse(at(59)));
  const a = writer.record(fileRecord("queue/leader/a.mime", { messageId: "<a@x>", threadId: "thr_1", date: at(10) })).key;
  const b = writer.record(fileRecord("queue/leader/b.mime", { messageId: "<b@x>", threadId: "thr_1", date: at(20) }, { mtimeMs: 2, size: 1, ino: 2 })).key;
  writer.record(fileRecord("queue/leader/c.mime", { messageId: "<c@x>", date: at(30) }, { mtimeMs: 3, size: 1, ino: 3 }));
  expect(kept()).toEqual([{ thread_key: "h\x1fthr_1", last_ms: Date.parse(at(20)) }]);

  // b, which held thr_1's last activity, moves to thr_2: thr_1 falls back to a's.
  db.prepare("UPDATE messages SET thread_key = 'h' || char(31) || 'thr_2' WHERE key = ?").run(b);
  expect(kept()).toEqual(grouped());
  expect(kept()).toContainEqual({ thread_key: "h\x1fthr_1", last_ms: Date.parse(at(10)) });
  // Re-dated earlier: thr_2's last activity follows it down.
  db.prepare("UPDATE messages SET sort_ms = ? WHERE key = ?").run(Date.parse(at(5)), b);
  expect(kept()).toContainEqual({ thread_key: "h\x1fthr_2", last_ms: Date.parse(at(5)) });
  // The last message of thr_1 deleted: the thread is gone.
  db.prepare("DELETE FROM messages WHERE key = ?").run(a);
  expect(kept()).toEqual([{ thread_key: "h\x1fthr_2", last_ms: Date.parse(at(5)) }]);
  // Leaving every thread (thread_key NULL), then deleted: nothing is left.
  db.prepare("UPDATE messages SET thread_key = NULL WHERE key = ?").run(b);
  expect(kept()).toEqual([]);
  db.prepare("DELETE FROM messages").run();
  expect(kept()).toEqual(grouped());
});

it("keeps a thread's last activity when a message below it is deleted, and falls back when its holder is", () => {
  const writer = new JournalWriter(db, () => Date.parse(at(59)));
  const [early, , late] = [10, 20, 30].map(
    (s, i) => writer.record(fileRecord(`queue/leader/${s}.mime`, { messageId: `<${s}@x>`, threadId: "thr_1", date: at(s) }, { mtimeMs: s, size: 1, ino: i + 1 })).key,
  );
  db.prepare("DELETE FROM messages WHERE key = ?").run(early);
  expect(kept()).toEqual([{ thread_key: "h\x1fthr_1", last_ms: Date.parse(at(30)) }]);
  db.prepare("DELETE FROM messages WHERE key = ?").run(late);
  expect(kept()).toEqual([{ thread_key: "h\x1fthr_1", last_ms: Date.parse(at(20)) }]);
});
