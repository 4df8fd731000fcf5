// A lane's merge against what the journal does beside it (lib/ingest/lane.test.ts compares whole
// fills): a message of another source whose thread comes from a merged one, and a row the stuck
// sweep marked in the journal after the lane's copy.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { openDb, type Db } from "./db";
import { mergeLane, openLane, removeLane } from "./lane";

const temp = tempDirs();
const open: Db[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

const SEP = "\u001f";
let seq = 0;
type Row = { key: string; source: string; messageId: string; inReplyTo?: string; deadLetterOf?: string; taskId?: string; threadKey?: string | null; status?: string; stuck?: number };
function message(db: Db, row: Row): void {
  db.prepare(
    `INSERT INTO messages (key, source, protocol, message_id, in_reply_to, dead_letter_of, task_id, sort_ms, agent, folder, path, last_path, status, stuck, updated_ms, seq, thread_key)
     VALUES (@key, @source, 'ignite-yaml', @messageId, @inReplyTo, @deadLetterOf, @taskId, 0, 'a', 'queue', @key, @key, @status, @stuck, 0, @seq, @threadKey)`,
  ).run({ inReplyTo: null, deadLetterOf: null, taskId: null, threadKey: null, status: "queued", stuck: 0, ...row, seq: ++seq });
}

function journalAndLane() {
  const dir = temp("mailroom-lane-merge-");
  const journal = openDb(path.join(dir, "journal.db"));
  open.push(journal);
  return { journal, dir, laneFile: path.join(dir, "journal.db.lane-0") };
}

describe("a lane's merge", () => {
  it("threads a message of another source that replies to a merged one, whose thread it took from its own parent", () => {
    const { journal, laneFile } = journalAndLane();
    // In the journal, journaled while the lane filled: a reply to m1, which is not in yet.
    message(journal, { key: "reply", source: "other", messageId: "r1", inReplyTo: "m1" });
    const { db: lane, seed } = openLane(laneFile, journal.name, ["s"]);
    // In the lane: m1, whose thread is its parent's (p1, grouped by its task), not one of its own.
    message(lane, { key: "parent", source: "s", messageId: "p1", taskId: "task_7", threadKey: `t${SEP}task_7` });
    message(lane, { key: "m", source: "s", messageId: "m1", inReplyTo: "p1", threadKey: `t${SEP}task_7` });
    lane.close();

    expect(mergeLane(journal, laneFile, seed)).toBe(2);
    removeLane(laneFile);
    expect(journal.prepare("SELECT thread_key FROM messages WHERE key = 'reply'").pluck().get()).toBe(`t${SEP}task_7`);
  });

  it("threads a merged message by its parent in another source, and another source's dead letter of a merged one", () => {
    const { journal, laneFile } = journalAndLane();
    message(journal, { key: "parent", source: "other", messageId: "p1", taskId: "task_7", threadKey: `t${SEP}task_7` });
    message(journal, { key: "letter", source: "other", messageId: "l1", deadLetterOf: "held" });
    const { db: lane, seed } = openLane(laneFile, journal.name, ["s"]);
    // Filled alone, the lane could not know either thread.
    message(lane, { key: "reply", source: "s", messageId: "r1", inReplyTo: "p1" });
    message(lane, { key: "held", source: "s", messageId: "h1", taskId: "task_9", threadKey: `t${SEP}task_9` });
    lane.close();

    expect(mergeLane(journal, laneFile, seed)).toBe(2);
    removeLane(laneFile);
    const threadOf = (key: string) => journal.prepare("SELECT thread_key FROM messages WHERE key = ?").pluck().get(key);
    expect(threadOf("reply")).toBe(`t${SEP}task_7`);
    expect(threadOf("letter")).toBe(`t${SEP}task_9`);
  });

  it("keeps a row stuck that the stuck sweep marked after the lane's copy, with its one step", () => {
    const { journal, laneFile } = journalAndLane();
    message(journal, { key: "slow", source: "s", messageId: "s1", status: "processing" });
    const { db: lane, seed } = openLane(laneFile, journal.name, ["s"]);
    lane.close();
    journal.prepare("UPDATE messages SET stuck = 1 WHERE key = 'slow'").run();
    journal.prepare("INSERT INTO events (key, at_ms, kind, detail) VALUES ('slow', 1, 'stuck', 'processing for more than 600 s')").run();

    mergeLane(journal, laneFile, seed);
    removeLane(laneFile);
    expect(journal.prepare("SELECT stuck FROM messages WHERE key = 'slow'").pluck().get()).toBe(1);
    expect(journal.prepare("SELECT count(*) FROM events WHERE key = 'slow' AND kind = 'stuck'").pluck().get()).toBe(1);
    expect(journal.prepare("SELECT sum(stuck) FROM agent_counts WHERE source = 's'").pluck().get()).toBe(1);
  });

  it("leaves the journal as it was when the lane is not there to merge", () => {
    const { journal, dir } = journalAndLane();
    message(journal, { key: "kept", source: "s", messageId: "k1" });
    expect(() => mergeLane(journal, path.join(dir, "gone.lane"), { sources: ["s"], eventsThrough: 0 })).toThrow(/no such table/);
    expect(journal.prepare("SELECT key FROM messages").pluck().all()).toEqual(["kept"]);
  });
});
