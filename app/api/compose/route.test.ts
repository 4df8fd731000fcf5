// POST /api/compose: the route handler called directly, guards included.
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReference } from "@/lib/protocols/ignite";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { POST } from "./route";

let w: IngestedWorkspace;
beforeAll(async () => {
  w = await openIngestedWorkspace();
});
afterAll(() => w.close());

const URL = "http://127.0.0.1:3000/api/compose";
const ORIGIN = "http://127.0.0.1:3000";
const message = { from: "coordinator", to: ["ignitian_1"], type: "task_assignment", priority: "high", body: 'task_id: "task_010"\n' };

function post(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> {
  return POST(new Request(URL, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, host: "127.0.0.1:3000", ...headers }, body, duplex: "half" } as RequestInit));
}
const json = (res: Response) => res.json() as Promise<{ items?: { key: string | null; path: string; content?: string }[]; error?: { code: string; message: string; fields?: Record<string, string> } }>;

describe("POST /api/compose", () => {
  it("is a 201 with the new message's key and path; the file is on disk", async () => {
    const res = await post(JSON.stringify({ ...message, threadId: "thr_route", inReplyTo: "<1.2.3@ignite.local>" }));
    expect(res.status).toBe(201);
    const { items } = await json(res);
    expect(items).toEqual([{ key: expect.stringMatching(/^[A-Za-z0-9_-]+$/), path: expect.stringMatching(/^\.ignite\/queue\/ignitian_1\/task_assignment_\d{16}\.mime$/) }]);
    const text = fs.readFileSync(path.join(w.ws, items![0]!.path), "utf8");
    expect(parseReference(text)).toMatchObject({ from: "coordinator", to: ["ignitian_1"], thread_id: "thr_route", in_reply_to: "<1.2.3@ignite.local>", body: 'task_id: "task_010"\n' });
  });

  it("answers a dry run with the files, a 200, and writes nothing", async () => {
    const before = w.tree();
    const res = await post(JSON.stringify({ ...message, dryRun: true }));
    expect(res.status).toBe(200);
    const { items } = await json(res);
    expect(items?.[0]?.content).toMatch(/^MIME-Version: 1\.0\nMessage-ID: </);
    expect(w.tree()).toEqual(before);
  });

  it("is a 400 naming each bad field, with the fields for a form", async () => {
    const before = w.tree();
    const res = await post(JSON.stringify({ ...message, from: "x\r\ny", to: ["nobody"], body: "a: [" }));
    expect(res.status).toBe(400);
    const { error } = await json(res);
    expect(error?.code).toBe("invalid_fields");
    expect(Object.keys(error?.fields ?? {}).sort()).toEqual(["body", "from", "to"]);
    expect(error?.message).toMatch(/from: .*carriage return.*; to: "nobody" has no queue folder.*; body: The body is not valid YAML \(line \d+, column \d+\)/);
    expect(w.tree()).toEqual(before);
  });

  it.each([
    ["not JSON", "{from:"],
    ["empty", ""],
  ])("is a 400 for a body that is %s", async (_label, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("bad_json");
  });

  it("is a 413 for a YAML body over 1 MiB, and writes nothing", async () => {
    const before = w.tree();
    const res = await post(JSON.stringify({ ...message, body: `a: "${"x".repeat(1024 * 1024)}"` }));
    expect(res.status).toBe(413);
    expect((await json(res)).error?.message).toMatch(/^body: /);
    expect(w.tree()).toEqual(before);
  });

  it("is a 413 when Content-Length says too much, before reading", async () => {
    const res = await post(JSON.stringify(message), { "content-length": String(50 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it("is a 413 when a body without Content-Length streams past the cap", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await post(endless);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(4 * 1024 * 1024); // it stopped reading at the cap
  });
});

describe("the guards of POST /api/compose", () => {
  const request = (headers: Record<string, string>) =>
    new NextRequest(URL, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", ...headers }, body: JSON.stringify(message) });

  it("refuses a POST without Origin", async () => {
    const res = await POST(request({}));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("bad_origin");
  });

  it("refuses a POST from another site", async () => {
    const res = await POST(request({ origin: "http://evil.example" }));
    expect(res.status).toBe(403);
  });

  it("refuses every POST in read-only mode, and writes nothing", async () => {
    const saved = process.env.MAILROOM_READONLY;
    process.env.MAILROOM_READONLY = "1";
    const before = w.tree();
    try {
      const res = await POST(request({ origin: ORIGIN }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("read_only");
      expect(w.tree()).toEqual(before);
    } finally {
      if (saved === undefined) delete process.env.MAILROOM_READONLY;
      else process.env.MAILROOM_READONLY = saved;
    }
  });

  it("needs the token when one is set", async () => {
    const saved = process.env.MAILROOM_TOKEN;
    process.env.MAILROOM_TOKEN = "s3cret-token";
    try {
      const res = await POST(request({ origin: ORIGIN }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("token_required");
      expect((await POST(request({ origin: ORIGIN, authorization: "Bearer s3cret-token" }))).status).toBe(201);
    } finally {
      if (saved === undefined) delete process.env.MAILROOM_TOKEN;
      else process.env.MAILROOM_TOKEN = saved;
    }
  });
});
