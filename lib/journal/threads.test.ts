// Thread building on journals written message by message (temp trees in all but files).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ParsedMessage } from "@/lib/protocols/types";
import { fileRecord } from "@/lib/testing/parsed";
import { migrate, openDb, type Db } from "./db";
import { SCHEMA_VERSION } from "./schema";
import { taskIdOf } from "./task-id";
import { summarizeThread } from "./thread-summary";
import { refreshThreadKey } from "./thread-keys";
import { queryThread, queryThreadOf, queryThreads } from "./threads";
import { JournalWriter } from "./writer";

let dir: string;
let db: Db;
let writer: JournalWriter;
let minute = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-threads-"));
  db = openDb(path.join(dir, "journal.sqlite"));
  writer = new JournalWriter(db, () => Date.parse("2026-11-20T02:00:00Z"));
  minute = 0;
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Journal one message at `queue/<path>`, a minute after the previous one. */
function put(relPath: string, mid: string, over: Partial<ParsedMessage> = {}): string {
  minute++;
  const date = new Date(Date.UTC(2026, 10, 20, 0, minute)).toISOString();
  return writer.record(fileRecord(`.ignite/queue/${relPath}`, { messageId: `<${mid}@t>`, date, ...over })).key;
}
const reply = (mid: string) => `<${mid}@t>`;
const ids = () => queryThreads(db, "", 100).items.map((t) => `${t.kind}:${t.id}:${t.count}`);
const keysOf = (id: string) => queryThread(db, id)?.messages.map((m) => m.key) ?? [];

describe("thread identity", () => {
  it("a reply without a Thread-ID joins its parent's thread, transitively, across folders", () => {
    const a = put("leader/processed/a.mime", "a", { threadId: "thr_1" });
    const b = put("strategist/b.mime", "b", { inReplyTo: reply("a") });
    // c has an issue of its own, but its chain leads to thr_1 first.
    const c = put("coordinator/processed/c.mime", "c", { inReplyTo: reply("b"), repository: "o/r", issue: "9" });
    expect(ids()).toEqual(["header:thr_1:3"]);
    expect(keysOf("thr_1")).toEqual([a, b, c]);
    expect(queryThread(db, "thr_1")?.edges).toEqual([
      { from: a, to: b, kind: "reply" },
      { from: b, to: c, kind: "reply" },
    ]);
    expect(queryThreadOf(db, c)).toEqual({ id: "thr_1", kind: "header" });
  });

  it("joins the same thread whichever file arrives first", () => {
    const child = put("strategist/b.mime", "b", { inReplyTo: reply("a") });
    expect(queryThreadOf(db, child)).toBeNull();
    put("leader/a.mime", "a", { threadId: "thr_late" });
    expect(queryThreadOf(db, child)).toEqual({ id: "thr_late", kind: "header" });
  });

  it("shows a reply to a missing message as a placeholder, and names a parent journaled elsewhere", () => {
    const root = put("leader/a.mime", "a", { threadId: "thr_2" });
    const orphan = put("leader/b.mime", "b", { threadId: "thr_2", inReplyTo: "<gone@t>" });
    const other = put("leader/c.mime", "c", { threadId: "thr_other" });
    const crossing = put("leader/d.mime", "d", { threadId: "thr_2", inReplyTo: reply("c") });
    const t = queryThread(db, "thr_2");
    expect(t?.messages.map((m) => m.key)).toEqual([root, orphan, crossing]);
    expect(t?.missing).toEqual([
      { id: "missing:<gone@t>", messageId: "<gone@t>", key: null },
      { id: "missing:<c@t>", messageId: "<c@t>", key: other },
    ]);
    expect(t?.edges).toContainEqual({ from: "missing:<gone@t>", to: orphan, kind: "reply" });
  });

  it("infers threads by repository + issue, then by task_id, with stable URL-safe ids", () => {
    const e = put("leader/e.mime", "e", { repository: "owner/repo", issue: "43" });
    const f = put("coordinator/f.mime", "f", { repository: "owner/repo", issue: "43", body: 'task_id: "task_7"' });
    const g = put("ignitian_1/g.mime", "g", { body: 'task_id: "task_7"\ntitle: x' });
    const h = put("evaluator/h.mime", "h", { body: "task_id: task_7 " });
    const j = put("leader/j.mime", "j", { body: 'task_id: "タスク"' });
    put("leader/alone.mime", "alone");
    expect(ids()).toEqual(["inferred:task-he59c77ab:1", "inferred:task-task_7:2", "inferred:issue-owner-repo-43:2"]);
    expect(keysOf("issue-owner-repo-43")).toEqual([e, f]);
    expect(keysOf("task-task_7")).toEqual([g, h]);
    expect(queryThreadOf(db, j)?.id).toBe("task-he59c77ab");
    expect(queryThread(db, "task-task_7")).toMatchObject({ kind: "inferred", edges: [{ from: g, to: h, kind: "next" }] });
  });

  it("puts a dead letter in its original's thread and shows a requeue as a branch back", () => {
    const task = put("ignitian_2/t.mime", "t", { threadId: "thr_3", to: ["ignitian_2"] });
    const letter = put("dead_letter/t_dlq_1.mime", "dlq", { from: "queue_monitor", to: ["leader"], type: "dead_letter" });
    writer.linkDeadLetter(letter, task, "timeout after 3 retries");
    writer.recordAction(task, "requeued", "back in queue/ignitian_2/t.mime");
    const t = queryThread(db, "thr_3");
    expect(t?.messages.map((m) => m.key)).toEqual([task, letter]);
    expect(t?.branches).toEqual([
      { from: task, to: letter, kind: "dead-letter" },
      { from: letter, to: task, kind: "requeue" },
    ]);
    expect(t?.edges).toEqual([]);
  });

  it("links each root to the latest message its sender took part in", () => {
    const a = put("leader/a.mime", "a", { threadId: "thr_4", from: "user", to: ["leader"] });
    const b = put("strategist/b.mime", "b", { threadId: "thr_4", from: "leader", to: ["strategist"] });
    const c = put("leader/c.mime", "c", { threadId: "thr_4", from: "evaluator", to: ["leader"] });
    const d = put("leader/d.mime", "d", { threadId: "thr_4", from: "strategist", to: ["leader"] });
    expect(queryThread(db, "thr_4")?.edges).toEqual([
      { from: a, to: b, kind: "next" },
      { from: b, to: c, kind: "next" },
      { from: b, to: d, kind: "next" },
    ]);
  });

  it("is null for an unknown id", () => {
    put("leader/a.mime", "a", { threadId: "thr_5" });
    expect(queryThread(db, "thr_nope")).toBeNull();
    expect(queryThread(db, "issue-nope-1")).toBeNull();
    expect(queryThread(db, "task-nope")).toBeNull();
  });
});

describe("thread list", () => {
  it("is newest activity first with counts, agents, times and the status mix", () => {
    put("leader/a.mime", "a", { threadId: "old", status: "delivered", from: "user", to: ["leader"] });
    put("ignitian_1/processed/b.mime", "b", { threadId: "new", status: "processing", from: "coordinator", to: ["ignitian_1"] });
    put("leader/c.mime", "c", { threadId: "new", status: "dead", from: "queue_monitor", to: ["leader"] });
    const list = queryThreads(db, "", 100);
    expect(list.items.map((t) => t.id)).toEqual(["new", "old"]);
    expect(list.items[0]).toMatchObject({
      kind: "header",
      count: 2,
      agents: ["coordinator", "ignitian_1", "leader", "queue_monitor"],
      first: "2026-11-20T00:02:00.000Z",
      last: "2026-11-20T00:03:00.000Z",
      statuses: { processing: 1, dead: 1 },
      stuck: 0,
    });
  });

  it("names who sent and who received, not the queue or channel that holds a message, in the list and alone", () => {
    // A holder that is not a recipient: a channel file, an archive, a shared inbox.
    put("dispatch/a.mime", "a", { threadId: "thr_chan", from: "Orchestrator", to: ["WePlan"] });
    put("dispatch/b.mime", "b", { threadId: "thr_chan", from: "WePlan", to: ["RoleDefiner", "Critic"] });
    put("report/c.mime", "c", { threadId: "thr_chan", from: null, to: [] });
    const expected = ["Critic", "Orchestrator", "RoleDefiner", "WePlan"];
    expect(queryThreads(db, "", 100).items[0]?.agents).toEqual(expected);
    const thread = queryThread(db, "thr_chan");
    expect(thread && summarizeThread(thread).agents).toEqual(expected);
  });

  it("times a thread as its list does when it is summarized alone: an undated message deleted now is not new activity", () => {
    put("leader/a.mime", "a", { threadId: "thr_t" });
    put("leader/b.mime", "b", { threadId: "thr_t", date: null });
    expect(writer.markGone("ws-ignite", ".ignite/queue/leader/b.mime")).not.toBeNull();
    const listed = queryThreads(db, "", 100).items[0];
    const thread = queryThread(db, "thr_t");
    expect(thread && summarizeThread(thread)).toMatchObject({ first: listed?.first, last: listed?.last });
    expect(listed?.last).not.toBe("2026-11-20T02:00:00.000Z");
  });

  it("filters with the message search syntax on members, or a word of the id, and cuts at limit", () => {
    put("leader/a.mime", "a", { threadId: "thr_alpha", type: "user_goal" });
    put("leader/b.mime", "b", { threadId: "thr_alpha", type: "task_list", status: "dead" });
    put("leader/c.mime", "c", { threadId: "thr_beta", type: "user_goal" });
    expect(queryThreads(db, "status:dead", 100).items.map((t) => [t.id, t.count])).toEqual([["thr_alpha", 2]]);
    expect(queryThreads(db, "beta", 100).items.map((t) => t.id)).toEqual(["thr_beta"]);
    expect(queryThreads(db, "type:user_goal", 1)).toMatchObject({ items: [{ id: "thr_beta" }], total: 2 });
    expect(() => queryThreads(db, "colour:red", 100)).toThrow(/unknown field "colour:"/);
  });
});

describe("a thread search with a relative date", () => {
  afterEach(() => vi.useRealTimers());

  it("means the time of each call, though nothing was journaled in between", () => {
    put("leader/a.mime", "a", { threadId: "thr_recent" }); // at 00:01
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-20T00:10:00Z"));
    const soon = queryThreads(db, "after:-15m", 100);
    expect(soon.items.map((t) => t.id)).toEqual(["thr_recent"]);
    vi.setSystemTime(Date.parse("2026-11-20T01:00:00Z"));
    const later = queryThreads(db, "after:-15m", 100);
    expect(later.items).toEqual([]);
    // Its ETag changes too, or a poll would be told its old list still holds.
    expect(later.version).not.toBe(soon.version);
    expect(later.seq).toBe(soon.seq);
    expect(queryThreads(db, "", 100).version).toBe(String(soon.seq));
    expect(queryThreads(db, "after:2026-11-01", 100).version).toBe(String(soon.seq));
  });
});

describe("migration 3", () => {
  it("opens a journal at the previous version, fills task_id from the bodies and puts old messages in threads", () => {
    const file = path.join(dir, "v2.sqlite");
    const old = new Database(file);
    // Version 2: the journal as it was before migration 3 added task_id and thread_key.
    migrate(old, 2);
    const insert = old.prepare(
      `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, status, updated_ms, seq,
         body, message_id, thread_id, in_reply_to, repository, issue, dead_letter_of)
       VALUES (@key, 's', 'ignite', @n, 'leader', 'queue', @key, @key, 'queued', 1, 1, @body, @mid, @thread, @reply, @repo, @issue, @dlq)`,
    );
    const bodies = [
      'task_id: "task_001"\ntitle: x\n',
      "title: y\ntask_id: 'task_002'\r\n",
      'tasks:\n  - task_id: "nested"\n',
      'task_id: "unknown"\n',
      '{"taskId": "task_json", "x": 1}',
      "task_id:   task_003   \n",
      "nothing here",
    ];
    const row = { thread: null, reply: null, repo: null, issue: null, dlq: null };
    bodies.forEach((body, n) => insert.run({ ...row, key: `m-${n}`, n, body, mid: `<${n}@t>` }));
    // A header thread with a reply chain and a dead letter hanging from it; a chain on an issue.
    insert.run({ ...row, key: "t-0", n: 10, body: "", mid: "<t0@t>", thread: "thr_old" });
    insert.run({ ...row, key: "t-1", n: 11, body: 'task_id: "task_001"', mid: "<t1@t>", reply: "<t0@t>" });
    insert.run({ ...row, key: "t-2", n: 12, body: "", mid: "<t2@t>", reply: "<t1@t>", repo: "o/r", issue: "1" });
    insert.run({ ...row, key: "t-3", n: 13, body: "", mid: "<t3@t>", dlq: "t-2" });
    insert.run({ ...row, key: "i-0", n: 14, body: "", mid: "<i0@t>", repo: "o/r", issue: "2" });
    insert.run({ ...row, key: "i-1", n: 15, body: "", mid: "<i1@t>", reply: "<i0@t>" });
    old.close();

    const reopened = openDb(file);
    expect(reopened.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const got = reopened.prepare("SELECT task_id FROM messages WHERE key LIKE 'm-%' ORDER BY key").pluck().all();
    expect(got).toEqual(["task_001", "task_002", null, null, "task_json", "task_003", null]);
    expect(got).toEqual(bodies.map(taskIdOf));
    const indexes = reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(["messages_thread_key", "messages_in_reply_to"]));
    // Migration 3's index of thread ids went with migration 24 (thread_key's serves its one query).
    expect(indexes).not.toContain("messages_thread_id");
    expect(queryThread(reopened, "thr_old")?.messages.map((m) => m.key)).toEqual(["t-0", "t-1", "t-2", "t-3"]);
    expect(queryThread(reopened, "issue-o-r-2")?.messages.map((m) => m.key)).toEqual(["i-0", "i-1"]);
    expect(queryThread(reopened, "task-task_001")?.messages.map((m) => m.key)).toEqual(["m-0"]);
    // What the migration filled is what the writer would keep: refreshing changes nothing.
    const before = reopened.prepare("SELECT key, thread_key FROM messages ORDER BY key").all();
    for (const { key } of before as { key: string }[]) refreshThreadKey(reopened, key);
    expect(reopened.prepare("SELECT key, thread_key FROM messages ORDER BY key").all()).toEqual(before);
    reopened.close();
  });
});
