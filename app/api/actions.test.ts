// The write API's route handlers, called directly on a temp copy of the IGNITE fixture.
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ActionResult, BulkResponse, DeadLettersResponse } from "@/lib/actions";
import { DL_ARCH, DL_TASK, QUEUED, STUCK, openHarness, type Harness } from "@/lib/operations/test-harness";
import { POST as bulk } from "./bulk/route";
import { GET as deadLetters } from "./dead-letters/route";
import { POST as discard } from "./messages/[key]/discard/route";
import { POST as requeue } from "./messages/[key]/requeue/route";
import { POST as restore } from "./messages/[key]/restore/route";
import { POST as retry } from "./messages/[key]/retry/route";

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const ORIGIN = "http://127.0.0.1:3000";
const post = (body: unknown) =>
  new NextRequest(`${ORIGIN}/api/x`, { method: "POST", headers: { origin: ORIGIN, host: new URL(ORIGIN).host, "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
const get = (path: string) => new NextRequest(`${ORIGIN}${path}`);
const params = (key: string) => ({ params: Promise.resolve({ key }) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("GET /api/dead-letters", () => {
  it("lists each dead letter with its original's queue, type, thread and failure info", async () => {
    const body = (await (await deadLetters(get("/api/dead-letters"))).json()) as DeadLettersResponse;
    expect(body.seq).toBeGreaterThan(0);
    const arch = body.items.find((d) => d.path === DL_ARCH);
    expect(arch).toMatchObject({
      originalTo: "architect",
      originalType: "architecture_request",
      originalFrom: "leader",
      originalFile: "architecture_request_1795133781377120.mime",
      threadId: "thr_ci_cache_57",
      retryCount: 3,
      lastError: "timeout after 3 retries",
      movedAt: "2026-11-20T00:36:55.000Z",
      originalPath: null,
      originalKey: expect.any(String),
    });
    expect(body.items.map((d) => d.path).sort()).toEqual([DL_ARCH, DL_TASK]);
  });

  it("answers a poll with 304 while nothing changed, and the new list once a requeue took a dead letter away", async () => {
    const first = await deadLetters(get("/api/dead-letters"));
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(new RegExp(`^"[0-9a-f]{8}-${((await first.json()) as DeadLettersResponse).seq}"$`));
    const poll = () => deadLetters(new NextRequest(`${ORIGIN}/api/dead-letters`, { headers: { "if-none-match": etag } }));
    expect((await poll()).status).toBe(304);
    expect((await requeue(post({ path: DL_ARCH }), params(h.keyAt(DL_ARCH)))).status).toBe(200);
    const after = await poll();
    expect(after.status).toBe(200);
    expect(((await after.json()) as DeadLettersResponse).items.map((d) => d.path)).toEqual([DL_TASK]);
  });
});

describe("POST /api/messages/{key}/…", () => {
  it("requeue answers the original's key, the new path and where the dead letter was archived, and records where it came from", async () => {
    const key = h.keyAt(DL_ARCH);
    const res = await requeue(post({ path: DL_ARCH }), params(key));
    expect(res.status).toBe(200);
    const body = (await res.json()) as ActionResult;
    expect(body).toEqual({
      key: h.summary(key)?.deadLetterOf,
      path: ".ignite/queue/architect/architecture_request_1795133781377120.mime",
      // The dead letter, archived: where the page's Undo restores it from.
      archived: { key, path: ".ignite/archive/mailroom/queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime" },
    });
    expect(h.history(body.key)).toContain("requeue by operator");
  });

  it("retry, discard and restore answer {key, path}", async () => {
    const stuck = h.keyAt(STUCK);
    expect(await (await retry(post({}), params(stuck))).json()).toEqual({ key: stuck, path: ".ignite/queue/evaluator/evaluation_request_1795136092377001.mime" });
    const queued = h.keyAt(QUEUED);
    const discarded = (await (await discard(post(""), params(queued))).json()) as ActionResult;
    expect(discarded.path).toContain("archive/mailroom/queue/leader/");
    expect(await (await restore(post({ path: discarded.path }), params(queued))).json()).toEqual({ key: queued, path: QUEUED });
  });

  it.each([
    ["an unknown field", { to: "architect", force: true }, 400, "bad_request"],
    ["a bad queue name", { to: "../leader" }, 400, "bad_request"],
    ["a body that is not JSON", "{nope", 400, "bad_json"],
    ["a YAML error", { body: "a: [1, 2\n" }, 400, "bad_body"],
    // Line breaks the IGNITE tools see and the YAML check here does not: refused as compose refuses them.
    ["a CR in the body", { body: "task: a\r\nnote: b\n" }, 400, "bad_body"],
    ["a U+2028 in the body", { body: "task: \"a\u2028b\"\n" }, 400, "bad_body"],
    ["a U+2029 in the body", { body: "task: \"a\u2029b\"\n" }, 400, "bad_body"],
    ["a NEL in the body", { body: "task: a\u0085b\n" }, 400, "bad_body"],
    ["a stale path", { path: ".ignite/queue/dead_letter/old.mime" }, 409, "moved"],
  ])("requeue with %s is a %s and changes nothing", async (_what, body, status, code) => {
    const before = h.tree();
    const res = await requeue(post(body), params(h.keyAt(DL_ARCH)));
    expect(res.status).toBe(status);
    expect((await errorOf(res)).code).toBe(code);
    expect(h.tree()).toEqual(before);
  });

  it("is a 404 for an unknown key and a 400 for a malformed one", async () => {
    expect((await retry(post({}), params("nope-00000000"))).status).toBe(404);
    expect((await discard(post({}), params("../etc"))).status).toBe(400);
  });

  it("twenty concurrent requeue requests for one dead letter: exactly one 200", async () => {
    const key = h.keyAt(DL_ARCH);
    const answers = await Promise.all(Array.from({ length: 20 }, () => requeue(post({ path: DL_ARCH }), params(key))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(h.tree().filter((p) => p.includes("architecture_request_1795133781377120.mime"))).toHaveLength(1);
  });
});

describe("POST /api/bulk", () => {
  it("a dry run says what would happen to each key, and which would fail, without writing", async () => {
    const before = h.tree();
    const keys = [h.keyAt(DL_ARCH), h.keyAt(QUEUED), "nope-00000000"];
    const res = await bulk(post({ action: "requeue", keys, dryRun: true }));
    const { results } = (await res.json()) as BulkResponse;
    expect(results.map((r) => [r.key, r.ok, r.error?.code])).toEqual([
      [keys[0], true, undefined],
      [keys[1], false, "not_applicable"],
      [keys[2], false, "not_found"],
    ]);
    expect(results[0]?.plan).toMatch(/queue\/architect\/architecture_request_1795133781377120\.mime/);
    expect(h.tree()).toEqual(before);
  });

  it("a real run handles each key on its own", async () => {
    const keys = [h.keyAt(QUEUED), "nope-00000000", h.keyAt(DL_TASK)];
    const { results } = (await (await bulk(post({ action: "discard", keys, dryRun: false }))).json()) as BulkResponse;
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(h.exists(QUEUED) || h.exists(DL_TASK)).toBe(false);
    expect(results[2]?.path).toBe(".ignite/archive/mailroom/queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime");
  });

  it.each([
    ["no keys", { action: "discard", keys: [], dryRun: true }],
    ["more than 500 keys", { action: "discard", keys: Array.from({ length: 501 }, (_, i) => `k${i}`), dryRun: true }],
    ["a query instead of keys", { action: "discard", q: "status:dead", dryRun: false }],
    ["no dryRun", { action: "discard", keys: ["a"] }],
    ["an unknown action", { action: "delete", keys: ["a"], dryRun: true }],
  ])("refuses %s with a 400", async (_what, body) => {
    const res = await bulk(post(body));
    expect(res.status).toBe(400);
  });
});
