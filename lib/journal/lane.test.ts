// A lane's merge against what the journal does beside it (lib/ingest/lane.test.ts compares whole
// fills): a message of another source whose thread comes from a merged one, and a row the stuck
// sweep marked in the journal after the lane's copy.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { openDb, type Db } from "./db";
import { deferIndexes } from "./deferred-indexes";
import { mergeLane, openLane, removeLane } from "./lane";
import { rebuildTriggerTables } from "./load-triggers";

const temp = tempDirs();
const open: Db[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

const SEP = "\u001f";
let seq = 0;
type Row = {
  key: string; source: string; messageId: string; inReplyTo?: string; deadLetterOf?: string; taskId?: string; threadKey?: string | null; status?: string; stuck?: number;
  agent?: string; folder?: string; type?: string | null; sortMs?: number; updatedMs?: number;
};
function message(db: Db, row: Row): void {
  db.prepare(
    `INSERT INTO messages (key, source, protocol, message_id, in_reply_to, dead_letter_of, task_id, sort_ms, agent, folder, type, path, last_path, status, stuck, updated_ms, seq, thread_key)
     VALUES (@key, @source, 'ignite-yaml', @messageId, @inReplyTo, @deadLetterOf, @taskId, @sortMs, @agent, @folder, @type, @key, @key, @status, @stuck, @updatedMs, @seq, @threadKey)`,
  ).run({ inReplyTo: null, deadLetterOf: null, taskId: null, threadKey: null, status: "queued", stuck: 0, agent: "a", folder: "queue", type: null, sortMs: 0, updatedMs: 0, ...row, seq: ++seq });
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

  it("counts its rows as the journal's insert triggers would, and puts the triggers back", () => {
    const { journal, laneFile } = journalAndLane();
    const HOUR = 3_600_000;
    message(journal, { key: "beside", source: "other", messageId: "o1", agent: "a", type: "task", sortMs: HOUR, updatedMs: 5, threadKey: `t${SEP}x` });
    // The start's first turn wrote one of the lane's source: the merge replaces it.
    message(journal, { key: "first", source: "s", messageId: "f1", agent: "a", type: "task", sortMs: HOUR, updatedMs: 9 });
    const { db: lane, seed } = openLane(laneFile, journal.name, ["s"]);
    lane.prepare("UPDATE messages SET status = 'delivered' WHERE key = 'first'").run();
    message(lane, { key: "m2", source: "s", messageId: "m2", agent: "a", type: "task", sortMs: HOUR + 1, updatedMs: 12, threadKey: `t${SEP}x` });
    message(lane, { key: "m3", source: "s", messageId: "m3", agent: "b", type: null, sortMs: 3 * HOUR, updatedMs: 7, stuck: 1, status: "processing", threadKey: `t${SEP}y` });
    message(lane, { key: "dead", source: "s", messageId: "d1", agent: "b", folder: "dead_letter", sortMs: 2 * HOUR, updatedMs: 30, status: "dead" });
    lane.close();

    expect(mergeLane(journal, laneFile, seed)).toBe(4);
    removeLane(laneFile);
    const tables = ["agent_counts", "thread_last", "hour_agent_counts", "hour_type_counts"];
    // A group counted down to 0 keeps its row (the first turn's "queued" one); a rebuild has none.
    const rows = (sql: string) => journal.prepare(sql).all().map((r) => JSON.stringify(r)).sort();
    const kept = Object.fromEntries(tables.map((t) => [t, rows(`SELECT * FROM ${t} WHERE ${t === "thread_last" ? "1" : "n > 0"}`)]));
    rebuildTriggerTables(journal);
    for (const t of tables) expect(kept[t], t).toEqual(rows(`SELECT * FROM ${t}`));
    expect(journal.prepare("SELECT n, stuck, last_ms FROM agent_counts WHERE source = 's' AND agent = 'b' AND status = 'processing'").get()).toEqual({ n: 1, stuck: 1, last_ms: 7 });
    expect(journal.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ('agent_counts_insert', 'thread_last_insert', 'hour_counts_insert')").pluck().get()).toBe(3);
  });

  it("leaves a trigger a load set aside to that load", () => {
    const { journal, laneFile } = journalAndLane();
    const { db: lane, seed } = openLane(laneFile, journal.name, ["s"]);
    message(lane, { key: "m", source: "s", messageId: "m1", threadKey: `t${SEP}x` });
    lane.close();
    deferIndexes(journal, [], { triggers: ["thread_last_insert"] });

    mergeLane(journal, laneFile, seed);
    removeLane(laneFile);
    expect(journal.prepare("SELECT count(*) FROM thread_last").pluck().get()).toBe(0);
    expect(journal.prepare("SELECT n FROM agent_counts WHERE source = 's'").pluck().get()).toBe(1);
    expect(journal.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'thread_last_insert'").get()).toBeUndefined();
  });

  it("leaves the journal as it was when the lane is not there to merge", () => {
    const { journal, dir } = journalAndLane();
    message(journal, { key: "kept", source: "s", messageId: "k1" });
    expect(() => mergeLane(journal, path.join(dir, "gone.lane"), { sources: ["s"], eventsThrough: 0 })).toThrow(/no such table/);
    expect(journal.prepare("SELECT key FROM messages").pluck().all()).toEqual(["kept"]);
  });
});
