// A bulk load's chunks are each visible once committed (newest first: a reply usually comes before
// the message it answers). After every chunk, nothing the journal answers about a message loaded so
// far may be false: a reply is in its parent's thread or, its parent not yet loaded, in none; files
// sharing a Message-ID are flagged as soon as both are in.
import path from "node:path";
import { expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { openDb } from "./db";
import { queryThreadOf, queryThreads } from "./threads";
import { JournalWriter } from "./writer";

const temp = tempDirs();
const S = "ws-ignite";

/** A bulk load into a new journal. */
function bulkLoad() {
  const db = openDb(path.join(temp("mailroom-load-settle-"), "journal.sqlite"));
  const bulk = new JournalWriter(db, () => 5_000_000).beginBulkLoad();
  if (!bulk) throw new Error("not a bulk load");
  return { db, bulk };
}

let ino = 0;
/** A message file; `over` sets its headers (a body with a task_id gives it a group of its own). */
const msg = (name: string, over: Parameters<typeof fileRecord>[1]) => fileRecord(`queue/leader/${name}.mime`, over, { mtimeMs: 1_000, size: 10, ino: ++ino });

/** Parent (Thread-ID thr_p) ← reply ← reply's reply; neither reply states a Thread-ID, each has a task_id of its own. */
const parent = msg("parent", { messageId: "<p@x>", threadId: "thr_p", date: "2026-11-20T00:00:00.000Z" });
const reply = msg("reply", { messageId: "<r@x>", inReplyTo: "<p@x>", body: "task_id: task_r\n", date: "2026-11-20T01:00:00.000Z" });
const replyToReply = msg("reply2", { messageId: "<g@x>", inReplyTo: "<r@x>", body: "task_id: task_g\n", date: "2026-11-20T02:00:00.000Z" });

function keyOf(db: ReturnType<typeof openDb>, messageId: string): string {
  return db.prepare("SELECT key FROM messages WHERE message_id = ?").pluck().get(messageId) as string;
}
const threadIds = (db: ReturnType<typeof openDb>) => queryThreads(db, "", 100).items.map((t) => t.id).sort();

it("shows a reply loaded before its parent in no thread, then in its parent's once the parent's chunk is in, before the load ends", () => {
  const { db, bulk } = bulkLoad();
  // Newest first: the reply's reply, then the reply, then their parent, each in a chunk of its own.
  bulk.add(S, [replyToReply], 1);
  // Its parent is not loaded: its thread is not known, so it is in none (not one of its own it would leave).
  expect(queryThreadOf(db, keyOf(db, "<g@x>"))).toBeNull();
  expect(threadIds(db)).toEqual([]);
  bulk.add(S, [reply], 1);
  expect(queryThreadOf(db, keyOf(db, "<r@x>"))).toBeNull();
  expect(queryThreadOf(db, keyOf(db, "<g@x>"))).toBeNull();
  expect(threadIds(db)).toEqual([]);
  bulk.add(S, [parent], 1);
  // The parent's chunk settles both replies loaded before it.
  for (const m of ["<p@x>", "<r@x>", "<g@x>"]) expect(queryThreadOf(db, keyOf(db, m))).toEqual({ id: "thr_p", kind: "header" });
  expect(threadIds(db)).toEqual(["thr_p"]);
  expect(queryThreads(db, "", 100).items[0]?.count).toBe(3);
  bulk.finish(S);
  expect(threadIds(db)).toEqual(["thr_p"]);
  db.close();
});

it("puts a chunk's reply in the thread of a parent loaded in an earlier chunk, and settles a chain within one chunk", () => {
  const { db, bulk } = bulkLoad();
  bulk.add(S, [parent], 1);
  // The reply's reply comes first in the chunk: its parent (the reply) is settled first.
  bulk.add(S, [replyToReply, reply], 2);
  expect(queryThreadOf(db, keyOf(db, "<g@x>"))).toEqual({ id: "thr_p", kind: "header" });
  expect(queryThreadOf(db, keyOf(db, "<r@x>"))).toEqual({ id: "thr_p", kind: "header" });
  expect(threadIds(db)).toEqual(["thr_p"]);
  bulk.finish(S);
  db.close();
});

it("gives a reply whose parent never came its own group at the end, as the writer would, also for a load stopped part-way", () => {
  const { db, bulk } = bulkLoad();
  bulk.add(S, [replyToReply], 1);
  // The load stops here: the reply it answers is never loaded.
  bulk.finish(S);
  expect(queryThreadOf(db, keyOf(db, "<g@x>"))).toEqual({ id: "task-task_g", kind: "inferred" });
  expect(threadIds(db)).toEqual(["task-task_g"]);
  db.close();
});

it("flags two files sharing a Message-ID as soon as the second one's chunk is in, and the change reaches a poll", () => {
  const { db, bulk } = bulkLoad();
  const duplicate = () => db.prepare("SELECT duplicate FROM messages WHERE message_id = '<d@x>' ORDER BY id").pluck().all();
  bulk.add(S, [msg("d-new", { messageId: "<d@x>" })], 1);
  expect(duplicate()).toEqual([0]);
  const seq = db.prepare("SELECT value FROM meta WHERE name = 'seq'").pluck().get() as number;
  bulk.add(S, [msg("other", { messageId: "<o@x>" }), msg("d-old", { messageId: "<d@x>" })], 2);
  expect(duplicate()).toEqual([1, 1]);
  // The first file was loaded before: its flag is a change a poll (since its seq) must see.
  expect(db.prepare("SELECT count(*) FROM messages WHERE message_id = '<d@x>' AND seq > ?").pluck().get(seq)).toBe(2);
  expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'duplicate'").pluck().get()).toBe(2);
  bulk.finish(S);
  expect(duplicate()).toEqual([1, 1]);
  expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'duplicate'").pluck().get()).toBe(2);
  db.close();
});

it("gives a reply left waiting by a load that never ended its thread at the journal's next open", () => {
  const { db, bulk } = bulkLoad();
  bulk.add(S, [replyToReply], 1);
  // The server dies mid-load: no finish(); the next start opens the journal again.
  db.close();
  const reopened = openDb(db.name);
  expect(queryThreadOf(reopened, keyOf(reopened, "<g@x>"))).toEqual({ id: "task-task_g", kind: "inferred" });
  expect(threadIds(reopened)).toEqual(["task-task_g"]);
  reopened.close();
});
