// POST /api/messages/{key}/actions/{action} and the detail's `actions`, on a temp copy of each
// protocol's fixture with ingest running: every action writes what its protocol's tools read, the
// journal shows it at once, a dry run writes nothing, bad input is a 400 naming the field and a
// file changed since the page loaded a 409, both with nothing written.
import fs from "node:fs";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { BulkResponse } from "@/lib/actions";
import type { MessageDetail } from "@/lib/model";
import type { ActionDryRun } from "@/lib/protocols/actions";
import { getJournal } from "@/lib/journal/store";
import { openHarness, type Harness } from "@/lib/operations/test-harness";
import { POST as bulk } from "./bulk/route";
import { POST as act } from "./messages/[key]/actions/[action]/route";
import { GET as detail } from "./messages/[key]/route";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});
const open = async (fixture: string) => (h = await openHarness(fixture));

const ORIGIN = "http://127.0.0.1:3000";
const post = (body: unknown, origin = ORIGIN) =>
  new NextRequest(`${ORIGIN}/api/x`, { method: "POST", headers: { origin, host: new URL(ORIGIN).host, "content-type": "application/json" }, body: JSON.stringify(body) });
const getDetail = async (key: string) => (await (await detail(new NextRequest(`${ORIGIN}/api/messages/${key}`), { params: Promise.resolve({ key }) })).json()) as MessageDetail;
const run = (key: string, action: string, body: unknown, origin?: string) => act(post(body, origin), { params: Promise.resolve({ key, action }) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
/** The key of the entry with this protocol id in the file at `rel`. */
const entryKey = (hh: Harness, rel: string, id: string) => {
  const key = hh.q(`path:${rel}`).find((m) => m.messageId === id)?.key;
  if (!key) throw new Error(`no entry ${id} in ${rel}`);
  return key;
};

const V2_DL = "queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml";
const V2_STUCK = "queue/evaluator/processed/evaluation_request_1770262765402266.yaml";
const V2_QUEUED = "queue/innovator/improvement_request_1770263144310556.yaml";
const INBOX = "queue/inbox/karo.yaml";
const UNREAD = "msg_20260206_105231_c01d5e42";
const READ = "msg_20260206_101502_3fa1c2d9";
const WF = ".claude/workflow/orchestrate_20260125_143000_a1b2c3d4/channel/agents";
const SECURITY = `${WF}/agent_security.jsonl`;
const UNACKED = "msg_20260125143455_5e6f7a8b";

describe("the detail's actions: what each protocol offers", () => {
  it("IGNITE v2: requeue (with its original's queue and text) and discard on a dead letter; requeue, retry, discard when stuck; discard when queued", async () => {
    const hh = await open("ignite-yaml");
    const dl = await getDetail(hh.keyAt(V2_DL));
    expect(dl.actions.map((a) => a.id)).toEqual(["requeue", "discard"]);
    expect(dl.actions[0]).toMatchObject({ input: "queue+body", queue: "ignitian_2", bulk: true });
    expect(dl.actions[0]?.body).toMatch(/^type: task_assignment/);
    expect(dl.actionCheck).toEqual({ path: V2_DL, expect: { size: expect.any(Number), ino: expect.any(Number) } });
    expect((await getDetail(hh.keyAt(V2_STUCK))).actions.map((a) => a.id)).toEqual(["requeue", "retry", "discard"]);
    expect((await getDetail(hh.keyAt(V2_QUEUED))).actions.map((a) => a.id)).toEqual(["discard"]);
  });

  it("shogun: mark read on an unread inbox message, mark unread on a read one, nothing on a task", async () => {
    const hh = await open("shogun");
    expect((await getDetail(entryKey(hh, INBOX, UNREAD))).actions).toEqual([{ id: "mark-read", verb: "Mark read", input: "none", bulk: true }]);
    expect((await getDetail(entryKey(hh, INBOX, READ))).actions.map((a) => a.id)).toEqual(["mark-unread"]);
    const task = hh.q("path:queue/tasks/ashigaru1.yaml")[0];
    expect(task && (await getDetail(task.key)).actions).toEqual([]);
  });

  it("workflow: resend and a confirmed abort on an unacked task_assign; only abort once it is received", async () => {
    const hh = await open("workflow");
    const unacked = await getDetail(entryKey(hh, SECURITY, UNACKED));
    expect(unacked.actions.map((a) => a.id)).toEqual(["resend", "abort"]);
    expect(unacked.actions[1]?.confirm).toMatch(/agent_security.*task_003/);
    const received = await getDetail(entryKey(hh, `${WF}/agent_cognitive.jsonl`, "msg_20260125143023_9a8b7c6d"));
    expect(received.actions.map((a) => a.id)).toEqual(["abort"]);
  });

  it("KickLang: none (replying is compose's)", async () => {
    const hh = await open("kicklang");
    const any = hh.q("")[0];
    expect(any && (await getDetail(any.key)).actions).toEqual([]);
  });
});

describe("IGNITE v2 actions", () => {
  it("requeue a dead letter as is: the original back in its queue, the letter archived, the journal and history at once", async () => {
    const hh = await open("ignite-yaml");
    // Git keeps no empty folder: ignitian_2's queue, empty since its task died, is made here.
    fs.mkdirSync(hh.abs("queue/ignitian_2"));
    const key = hh.keyAt(V2_DL);
    const d = await getDetail(key);
    const before = hh.tree();
    const dry = (await (await run(key, "requeue", { ...d.actionCheck, dryRun: true })).json()) as ActionDryRun;
    expect(dry).toMatchObject({ dryRun: true, path: "queue/ignitian_2/task_assignment_1770261903611907.yaml" });
    expect(hh.tree()).toEqual(before);
    const res = await run(key, "requeue", d.actionCheck);
    expect(res.status).toBe(200);
    expect(hh.exists("queue/ignitian_2/task_assignment_1770261903611907.yaml")).toBe(true);
    expect(hh.exists(`archive/mailroom/${V2_DL}`)).toBe(true);
    expect(hh.summary(hh.keyAt("queue/ignitian_2/task_assignment_1770261903611907.yaml"))?.status).toBe("queued");
    expect(hh.history(key)).toContain("requeue by operator");
    // The answer names the requeued message and the archived letter, for the page's Undo to act on each.
    expect(await res.json()).toEqual({
      key: hh.keyAt("queue/ignitian_2/task_assignment_1770261903611907.yaml"), path: "queue/ignitian_2/task_assignment_1770261903611907.yaml",
      archived: { key, path: `archive/mailroom/${V2_DL}` }, warnings: [],
    });
  });

  it("requeue a stuck one edited, to another queue; retry now; discard then restore", async () => {
    const hh = await open("ignite-yaml");
    const key = hh.keyAt(V2_STUCK);
    const edited = "type: evaluation_request\nfrom: coordinator\nto: evaluator\npayload:\n  task_id: task_001b\n";
    const res = await run(key, "requeue", { ...(await getDetail(key)).actionCheck, to: "strategist", body: edited });
    expect(res.status).toBe(200);
    const text = hh.read("queue/strategist/evaluation_request_1770262765402266.yaml");
    expect(text).toMatch(/task_id: task_001b/);

    const queued = hh.keyAt(V2_QUEUED);
    const discarded = (await (await run(queued, "discard", (await getDetail(queued)).actionCheck)).json()) as { key: string; path: string };
    expect(discarded.path).toBe(`archive/mailroom/${V2_QUEUED}`);
    expect((await getDetail(discarded.key)).actions.map((a) => a.id)).toEqual(["restore"]);
    expect((await run(discarded.key, "restore", { path: discarded.path })).status).toBe(200);
    expect(hh.exists(V2_QUEUED)).toBe(true);
  });

  it("retry now: back in its queue as the next retry", async () => {
    const hh = await open("ignite-yaml");
    const key = hh.keyAt(V2_STUCK);
    expect((await run(key, "retry", (await getDetail(key)).actionCheck)).status).toBe(200);
    const text = hh.read("queue/evaluator/evaluation_request_1770262765402266.yaml");
    expect(text).toMatch(/retry_count: 2\n/);
    expect(hh.exists(V2_STUCK)).toBe(false);
  });
});

describe("shogun actions", () => {
  it("mark read, then unread: the inbox on disk changes that entry only, and the journal shows it at once", async () => {
    const hh = await open("shogun");
    const key = entryKey(hh, INBOX, UNREAD);
    const d = await getDetail(key);
    const before = hh.read(INBOX);
    const dry = (await (await run(key, "mark-read", { ...d.actionCheck, dryRun: true })).json()) as ActionDryRun;
    expect(dry.bytes).toContain("read: true");
    expect(hh.read(INBOX)).toBe(before);
    expect((await run(key, "mark-read", d.actionCheck)).status).toBe(200);
    const after = parse(hh.read(INBOX)) as { messages: { id: string; read: boolean }[] };
    const was = parse(before) as typeof after;
    expect(after.messages.map((m) => [m.id, m.read])).toEqual(was.messages.map((m) => [m.id, m.id === UNREAD ? true : m.read]));
    expect(hh.summary(key)?.status).toBe("read");
    expect(hh.history(key)).toContain("mark-read by operator");
    expect((await run(key, "mark-unread", (await getDetail(key)).actionCheck)).status).toBe(200);
    expect(hh.summary(key)?.status).toBe("unread");
  });

  it("is a 409 when the inbox changed since the page loaded, and writes nothing", async () => {
    const hh = await open("shogun");
    const key = entryKey(hh, INBOX, UNREAD);
    const d = await getDetail(key);
    // An agent's writer replaced the inbox meanwhile (a new file: another inode).
    const changed = `${hh.read(INBOX)}`;
    fs.writeFileSync(`${hh.abs(INBOX)}.new`, changed);
    fs.renameSync(`${hh.abs(INBOX)}.new`, hh.abs(INBOX));
    const res = await run(key, "mark-read", d.actionCheck);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe("changed");
    expect(hh.read(INBOX)).toBe(changed);
  });

  it("bulk marks many read, each under the inbox's locks", async () => {
    const hh = await open("shogun");
    const unread = hh.q(`path:${INBOX}`).filter((m) => m.status === "unread").map((m) => m.key);
    expect(unread.length).toBeGreaterThan(1);
    const { results } = (await (await bulk(post({ action: "mark-read", keys: unread, dryRun: false }))).json()) as BulkResponse;
    expect(results.every((r) => r.ok)).toBe(true);
    expect((parse(hh.read(INBOX)) as { messages: { read: boolean }[] }).messages.every((m) => m.read)).toBe(true);
    for (const k of unread) expect(hh.summary(k)?.status).toBe("read");
  });
});

describe("workflow actions", () => {
  it("resend appends the same line again; abort appends one abort line that requires an ack", async () => {
    const hh = await open("workflow");
    const key = entryKey(hh, SECURITY, UNACKED);
    const before = hh.read(SECURITY);
    const original = before.split("\n").find((l) => l.includes(UNACKED)) ?? "";
    const dry = (await (await run(key, "resend", { ...(await getDetail(key)).actionCheck, dryRun: true })).json()) as ActionDryRun;
    expect(dry.bytes).toBe(`${original}\n`);
    expect(hh.read(SECURITY)).toBe(before);
    expect((await run(key, "resend", (await getDetail(key)).actionCheck)).status).toBe(200);
    expect(hh.read(SECURITY)).toBe(`${before}${original}\n`);
    expect((await run(key, "abort", (await getDetail(key)).actionCheck)).status).toBe(200);
    const last = JSON.parse(hh.read(SECURITY).trimEnd().split("\n").at(-1) ?? "") as Record<string, unknown>;
    expect(last).toMatchObject({ from: "orchestrator", to: "agent_security", type: "abort", payload: { task_id: "task_003" }, requires_ack: true });
    expect(hh.history(key)).toEqual(expect.arrayContaining(["resend by operator", "abort by operator"]));
    // The journal has read the appended abort already: it is a message of its own, waiting for its ack.
    expect(hh.q("type:abort").map((m) => [m.agent, m.status])).toEqual([["agent_security", "unacked"]]);
  });

  it("on a list: a key given twice runs once, and an abort (not offered on a list) is refused, appending nothing", async () => {
    const hh = await open("workflow");
    const key = entryKey(hh, SECURITY, UNACKED);
    const before = hh.read(SECURITY);
    const original = before.split("\n").find((l) => l.includes(UNACKED)) ?? "";
    const twice = (await (await bulk(post({ action: "resend", keys: [key, key], dryRun: false }))).json()) as BulkResponse;
    expect(twice.results.map((r) => r.ok)).toEqual([true]);
    expect(hh.read(SECURITY)).toBe(`${before}${original}\n`);
    const after = hh.read(SECURITY);
    const abort = (await (await bulk(post({ action: "abort", keys: [key], dryRun: false }))).json()) as BulkResponse;
    expect(abort.results).toEqual([{ key, ok: false, error: { code: "not_applicable", message: expect.stringContaining("Abort task is not offered on a list of messages") as string } }]);
    expect(hh.read(SECURITY)).toBe(after);
  });

  it("takes an action on a channel being read again after it was replaced (no inode kept yet): not a 400", async () => {
    const hh = await open("workflow");
    const key = entryKey(hh, SECURITY, UNACKED);
    // What a replaced file's re-read keeps until it is over (REPLACING): the page then sends no inode.
    getJournal().db.prepare("UPDATE entry_files SET ino = -1 WHERE path = ?").run(SECURITY);
    const check = (await getDetail(key)).actionCheck;
    expect(check.expect).toEqual({ size: expect.any(Number) as number });
    expect((await run(key, "resend", check)).status).toBe(200);
  });

  it("is a 409 when the channel grew since the page loaded, and appends nothing", async () => {
    const hh = await open("workflow");
    const key = entryKey(hh, SECURITY, UNACKED);
    const d = await getDetail(key);
    fs.appendFileSync(hh.abs(SECURITY), '{"id":"msg_x","from":"orchestrator","to":"agent_security","type":"status","payload":{}}\n');
    const grown = hh.read(SECURITY);
    const res = await run(key, "resend", d.actionCheck);
    expect(res.status).toBe(409);
    expect(hh.read(SECURITY)).toBe(grown);
  });
});

describe("bad requests: a 400 (or 404, 403) and nothing written", () => {
  it.each([
    ["an unknown field", { force: true }, 400, /force/],
    ["a queue for an action that takes none", { to: "karo" }, 400, /^to: Mark read takes no queue/],
    ["a body for an action that takes none", { body: "x: 1\n" }, 400, /^body: /],
    ["a bad expect", { expect: { size: -1, ino: 1 } }, 400, /expect\.size/],
    ["a path with NUL", { path: "queue/\0" }, 400, /path/],
    ["a dryRun that is not a boolean", { dryRun: "yes" }, 400, /dryRun/],
  ])("%s", async (_what, body, status, message) => {
    const hh = await open("shogun");
    const key = entryKey(hh, INBOX, UNREAD);
    const before = hh.tree().map((p) => [p, hh.read(p)]);
    const res = await run(key, "mark-read", body);
    expect(res.status).toBe(status);
    expect((await errorOf(res)).message).toMatch(message);
    expect(hh.tree().map((p) => [p, hh.read(p)])).toEqual(before);
  });

  it("an action the message does not offer is a 409, an unknown one a 404, a stale path a 409; a bad edited body a 400", async () => {
    const hh = await open("ignite-yaml");
    const before = hh.tree();
    const queued = hh.keyAt(V2_QUEUED);
    expect((await errorOf(await run(queued, "retry", {}))).code).toBe("not_applicable");
    expect((await run(queued, "explode", {})).status).toBe(404);
    expect((await errorOf(await run(queued, "discard", { path: "queue/innovator/other.yaml" }))).code).toBe("moved");
    const stuck = hh.keyAt(V2_STUCK);
    const res = await run(stuck, "requeue", { body: "payload: [1, 2\n" });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^body: /);
    expect((await run(stuck, "requeue", { to: "../leader" })).status).toBe(400);
    expect(hh.tree()).toEqual(before);
  });

  it("refuses a change from another site and in read-only mode (the guards)", async () => {
    const hh = await open("shogun");
    const key = entryKey(hh, INBOX, UNREAD);
    const before = hh.read(INBOX);
    const res = await run(key, "mark-read", {}, "http://evil.example");
    expect([res.status, (await errorOf(res)).code]).toEqual([403, "bad_origin"]);
    process.env.MAILROOM_READONLY = "1";
    try {
      const ro = await run(key, "mark-read", {});
      expect([ro.status, (await errorOf(ro)).code]).toEqual([403, "read_only"]);
    } finally {
      delete process.env.MAILROOM_READONLY;
    }
    expect(hh.read(INBOX)).toBe(before);
  });
});
