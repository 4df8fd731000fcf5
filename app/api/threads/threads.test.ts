// Thread route handlers called directly against a journal of the IGNITE fixture, plus a reply
// chain written as files across folders of the same temp tree.
import fs from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ignite } from "@/lib/protocols/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import type { ThreadDetail, ThreadList } from "@/lib/threads/model";
import { GET as list } from "./route";
import { GET as detail } from "./[id]/route";
import { GET as exportThread } from "./[id]/export/route";

const { buildMessage } = ignite;

let workspace: IngestedWorkspace;
let ws: string;

const queue = (...parts: string[]) => path.join(ws, ".ignite", "queue", ...parts);

beforeAll(async () => {
  workspace = await openIngestedWorkspace();
  ws = workspace.ws;
  // A conversation without Thread-IDs, across three agents' folders, rooted in thr_readme_42.
  const root = "<179513460025.38848.12394754030115323195@ignite.local>";
  const at = (s: number) => new Date(Date.parse("2026-11-20T01:10:00Z") + s * 1000);
  const write = (file: string, mid: string, inReplyTo: string, from: string, to: string, s: number, threadId?: string) =>
    fs.writeFileSync(
      file,
      buildMessage({ from, to: [to], type: "note", body: "text: hello\n", date: at(s), messageId: mid, inReplyTo, threadId }),
    );
  write(queue("strategist", "note_1.mime"), "<n1@t>", root, "leader", "strategist", 1);
  write(queue("coordinator", "processed", "note_2.mime"), "<n2@t>", "<n1@t>", "strategist", "coordinator", 2);
  write(queue("ignitian_1", "note_3.mime"), "<n3@t>", "<n2@t>", "coordinator", "ignitian_1", 3);
  write(queue("ignitian_1", "note_4.mime"), "<n4@t>", "<never@t>", "coordinator", "ignitian_1", 4, "thr_readme_42");
  await workspace.scanNow();
});
afterAll(() => workspace.close());

const threads = async (query = "") => list(new NextRequest(`http://localhost/api/threads${query}`));
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const thread = async (id: string) => (await (await detail(new Request("http://x"), params(id))).json()) as ThreadDetail;

describe("GET /api/threads", () => {
  it("lists every thread, newest activity first, header and inferred, with their mix", async () => {
    const body = (await (await threads()).json()) as ThreadList;
    expect(body.items.map((t) => [t.id, t.kind, t.count])).toEqual([
      ["thr_readme_42", "header", 17],
      ["thr_ci_cache_57", "header", 2],
      ["issue-owner-repo-43", "inferred", 2],
    ]);
    expect(body.items[0]).toMatchObject({ statuses: { dead: 2, processing: 2, retrying: 1 }, stuck: 1 });
    expect(body.items[1]).toMatchObject({ statuses: { dead: 2 }, agents: ["architect", "leader", "queue_monitor"] });
  });

  it("filters with the message search syntax and finds the thread of one message", async () => {
    const dead = (await (await threads("?q=status:dead")).json()) as ThreadList;
    expect(dead.items.map((t) => t.id)).toEqual(["thr_readme_42", "thr_ci_cache_57"]);
    const key = (await thread("issue-owner-repo-43")).messages[1]?.key ?? "";
    const of = (await (await threads(`?key=${key}`)).json()) as ThreadList;
    expect(of.items).toMatchObject([{ id: "issue-owner-repo-43", kind: "inferred", count: 2 }]);
  });

  it("answers a poll with 304 while the journal is unchanged, and in full once it moved", async () => {
    const first = await threads();
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{8}-\d+"$/);
    const poll = (tag: string) => list(new NextRequest("http://localhost/api/threads", { headers: { "if-none-match": tag } }));
    const again = await poll(etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    fs.writeFileSync(queue("strategist", "note_5.mime"), buildMessage({ from: "leader", to: ["strategist"], type: "note", body: "text: later\n", threadId: "thr_poll_1" }));
    await workspace.scanNow();
    const moved = await poll(etag);
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).not.toBe(etag);
    expect(((await moved.json()) as ThreadList).items[0]).toMatchObject({ id: "thr_poll_1", count: 1 });
  });

  it.each([
    ["?q=colour:red", "bad_query"],
    ["?limit=0", "bad_limit"],
    ["?limit=x", "bad_request"],
    ["?key=../x", "bad_request"],
  ])("%s is a 400", async (query, code) => {
    const res = await threads(query);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
  });
});

describe("GET /api/threads/{id}", () => {
  it("gives the messages by date with reply and next edges, the dead letter as a branch", async () => {
    const t = await thread("thr_readme_42");
    const types = t.messages.map((m) => m.type);
    expect(types.slice(0, 4)).toEqual(["user_goal", "strategy_request", "strategy_response", "task_list"]);
    const dates = t.messages.map((m) => m.date ?? "");
    expect([...dates].sort()).toEqual(dates);
    const key = (type: string, i = 0) => t.messages.filter((m) => m.type === type)[i]?.key;
    expect(t.edges).toContainEqual({ from: key("user_goal"), to: key("strategy_request"), kind: "reply" });
    expect(t.edges).toContainEqual({ from: key("evaluation_request"), to: key("progress_update"), kind: "next" });
    const letter = t.messages.find((m) => m.type === "dead_letter");
    expect(t.branches).toEqual([{ from: letter?.deadLetterOf, to: letter?.key, kind: "dead-letter" }]);
  });

  it("takes in a reply chain without Thread-IDs across folders, and shows a missing parent as a placeholder", async () => {
    const t = await thread("thr_readme_42");
    const notes = t.messages.filter((m) => m.type === "note").map((m) => m.key);
    expect(notes).toHaveLength(4);
    const goal = t.messages.find((m) => m.type === "user_goal")?.key;
    expect(t.edges).toContainEqual({ from: goal, to: notes[0], kind: "reply" });
    expect(t.edges).toContainEqual({ from: notes[0], to: notes[1], kind: "reply" });
    expect(t.edges).toContainEqual({ from: notes[1], to: notes[2], kind: "reply" });
    expect(t.missing).toEqual([{ id: "missing:<never@t>", messageId: "<never@t>", key: null }]);
    expect(t.edges).toContainEqual({ from: "missing:<never@t>", to: notes[3], kind: "reply" });
  });

  it("answers a poll with 304 while none of the thread's messages changed", async () => {
    const first = await detail(new Request("http://x"), params("thr_ci_cache_57"));
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"2-\d+"$/);
    const again = await detail(new Request("http://x", { headers: { "if-none-match": etag } }), params("thr_ci_cache_57"));
    expect(again.status).toBe(304);
    const stale = await detail(new Request("http://x", { headers: { "if-none-match": 'W/"1-1"' } }), params("thr_ci_cache_57"));
    expect(stale.status).toBe(200);
  });

  it("is a 404 for an unknown id and a 400 for a malformed one", async () => {
    const res = await detail(new Request("http://x"), params("thr_nope"));
    expect(res.status).toBe(404);
    // Any text a Thread-ID header holds is an id (control characters too); an empty or oversized address is not.
    expect((await detail(new Request("http://x"), params("bad\u0001id"))).status).toBe(404);
    expect((await detail(new Request("http://x"), params(""))).status).toBe(400);
    expect((await detail(new Request("http://x"), params("x".repeat(17 * 1024)))).status).toBe(400);
  });
});

describe("GET /api/threads/{id}/export", () => {
  const download = (id: string, format: string) => exportThread(new Request(`http://x/export?format=${format}`), params(id));

  it("JSON: the API's answer, as a download", async () => {
    const res = await download("thr_ci_cache_57", "json");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="thread-thr_ci_cache_57.json"');
    expect(JSON.parse(await res.text())).toEqual(await thread("thr_ci_cache_57"));
  });

  it("Markdown: a transcript with time, from → to, type, status and the body fenced", async () => {
    const res = await download("thr_ci_cache_57", "md");
    expect(res.headers.get("content-type")).toMatch(/^text\/markdown/);
    const md = await res.text();
    expect(md).toMatch(/^# Thread thr\\_ci\\_cache\\_57\n/);
    expect(md).toContain("- From → to: leader → architect");
    expect(md).toContain("- Status: dead");
    expect(md).toContain("- Time: 2026-11-20 00:16:21 UTC");
    expect(md).toContain('```text\noriginal_file: "architecture_request_1795133781377120.mime"');
  });

  it("zip: the original files, byte for byte, in time order", async () => {
    const res = await download("issue-owner-repo-43", "zip");
    expect(res.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files)).toEqual([
      "thread-issue-owner-repo-43/1-github_event_1795133882118342.mime",
      "thread-issue-owner-repo-43/2-github_task_1795133971604551.mime",
    ]);
    const original = fs.readFileSync(queue("leader", "processed", "github_event_1795133882118342.mime"));
    expect(Buffer.from(files["thread-issue-owner-repo-43/1-github_event_1795133882118342.mime"] ?? []).equals(original)).toBe(true);
    expect(strFromU8(files["thread-issue-owner-repo-43/2-github_task_1795133971604551.mime"] ?? new Uint8Array())).toContain("github_task");
  });

  it("refuses an unknown format and an unknown thread", async () => {
    expect((await download("thr_ci_cache_57", "pdf")).status).toBe(400);
    expect((await download("thr_nope", "md")).status).toBe(404);
  });
});
