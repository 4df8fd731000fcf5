// Route handlers called directly against a journal of the IGNITE fixture.
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDetail, MessagePage, SourceInfo, Stats } from "@/lib/model";
import { fixturePath } from "@/lib/testing/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET as unknownRoute } from "./[...path]/route";
import { GET as health } from "./health/route";
import { GET as messages } from "./messages/route";
import { GET as message } from "./messages/[key]/route";
import { GET as raw } from "./messages/[key]/raw/route";
import { GET as sources } from "./sources/route";
import { GET as stats } from "./stats/route";

let workspace: IngestedWorkspace;
let ws: string;

beforeAll(async () => {
  workspace = await openIngestedWorkspace();
  ws = workspace.ws;
});
afterAll(() => workspace.close());

const get = (path: string) => new NextRequest(`http://localhost${path}`);
const list = (query: string) => messages(new NextRequest(`http://localhost/api/messages${query}`));
const params = (key: string) => ({ params: Promise.resolve({ key }) });

async function firstKey(q: string): Promise<string> {
  const page = (await (await list(`?q=${encodeURIComponent(q)}`)).json()) as MessagePage;
  const key = page.items[0]?.key;
  if (!key) throw new Error(`no message for ${q}`);
  return key;
}

describe("read API", () => {
  it("GET /api/health", async () => {
    expect(await (await health(get("/api/health"))).json()).toEqual({ ok: true, version: expect.any(String), journal: null });
  });

  it("GET /api/sources names the workspace and its agents", async () => {
    const body = (await (await sources(get("/api/sources"))).json()) as { sources: SourceInfo[] };
    expect(body.sources).toHaveLength(1);
    expect(body.sources[0]).toMatchObject({ protocol: "ignite", root: ws, error: null, indexing: { done: true, files: 19, total: 19 } });
    expect(body.sources[0]?.agents).toContain("ignitian_2");
  });

  it("GET /api/stats answers a poll with 304 while nothing changed", async () => {
    const first = await stats(get("/api/stats"));
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{8}-\d+-[\w-]+"$/);
    const again = await stats(new NextRequest("http://localhost/api/stats", { headers: { "if-none-match": etag ?? "" } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const stale = await stats(new NextRequest("http://localhost/api/stats", { headers: { "if-none-match": '"0-x"' } }));
    expect(stale.status).toBe(200);
    expect(stale.headers.get("etag")).toBe(etag);
  });

  it("GET /api/stats counts by status", async () => {
    const body = (await (await stats(get("/api/stats"))).json()) as Stats;
    // The dead messages and the two dead letters holding them, apart (the agents' Dead column sums to the first).
    expect(body.totals).toMatchObject({ messages: 21, dead: 2, deadLetters: 2, invalid: 2 });
    expect(body.seq).toBeGreaterThan(0);
  });

  it("GET /api/messages pages newest first and polls with since", async () => {
    const first = (await (await list("?limit=5&q=-status:invalid")).json()) as MessagePage;
    expect(first.items).toHaveLength(5);
    const dates = first.items.map((m) => m.date ?? "");
    expect([...dates].sort().reverse()).toEqual(dates);
    const second = (await (await list(`?limit=5&q=-status:invalid&cursor=${first.nextCursor}`)).json()) as MessagePage;
    expect(second.items[0]?.key).not.toBe(first.items[4]?.key);
    const poll = (await (await list(`?since=${first.seq}`)).json()) as MessagePage;
    expect(poll).toMatchObject({ items: [], seq: first.seq, removed: [] });
  });

  it.each([
    ["?q=colour:red", "bad_query", /unknown field "colour:"/],
    ["?q=abc%00def", "bad_query", /control character \(U\+0000\)/],
    [`?q=${Array.from({ length: 1000 }, () => "a").join("+")}`, "bad_query", /too many terms/],
    // Each parameter's own code, whether its value is refused by its form or by the journal.
    [`?q=${"x".repeat(2001)}`, "bad_query", /^q: must be at most 2000 characters$/],
    ["?limit=0", "bad_limit", /^limit: must be a whole number from 1 to 500$/],
    ["?limit=501", "bad_limit", /^limit: must be a whole number from 1 to 500$/],
    ["?limit=ten", "bad_limit", /^limit: must be a whole number from 1 to 500$/],
    ["?cursor=nonsense", "bad_cursor", /cursor is not one this server handed out/],
    ["?since=-4", "bad_since", /^since: must be a whole number$/],
    ["?q=source:nope", "bad_query", /unknown source "nope".*\(at position 8\)$/],
  ])("GET /api/messages%s is a 400 that says why", async (query, code, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(message);
  });

  it("GET /api/messages/{key} gives headers in file order, the body, parsed data and the reference object", async () => {
    const key = await firstKey("agent:ignitian_3");
    const detail = (await (await message(new Request("http://x"), params(key))).json()) as MessageDetail;
    expect(detail.headers[0]).toEqual(["MIME-Version", "1.0"]);
    expect(detail.data).toMatchObject({ task_id: "task_003" });
    const expected = JSON.parse(fs.readFileSync(fixturePath("ignite", "expected", "queue__ignitian_3__task_assignment_1795136081090233.mime.json"), "utf8"));
    expect(detail.ignite).toEqual(expected);
    expect(detail.history.map((h) => h.kind)).toEqual(["seen"]);
  });

  it("an address no API route serves is a 404 in the API's error shape", async () => {
    const res = await unknownRoute(get("/api/nope/x"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "no API route at GET /api/nope/x" } });
  });

  it("GET /api/messages/{key} is a 404 for an unknown key and a 400 for a malformed one", async () => {
    const missing = await message(new Request("http://x"), params("nope-00000000"));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await message(new Request("http://x"), params("../etc/passwd"))).status).toBe(400);
  });

  it("GET /api/messages/{key}/raw downloads the exact bytes, even after the file is gone", async () => {
    const file = path.join(ws, ".ignite/queue/leader/processed/user_goal_1795134600214337.mime");
    const bytes = fs.readFileSync(file);
    const key = await firstKey("type:user_goal");
    fs.unlinkSync(file);
    await workspace.scanNow();
    const res = await raw(new Request("http://x"), params(key));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="user_goal_1795134600214337.mime"');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
