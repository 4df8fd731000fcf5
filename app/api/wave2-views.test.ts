// Health, logs and documents of the sources read as entries: route handlers called directly on
// copies of fixtures/workflow and fixtures/shogun, without ingest (detected per request) and with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIngest, stopIngest } from "@/lib/ingest";
import { closeJournals } from "@/lib/journal/store";
import type { ApiErrorBody, SourceHealthItem } from "@/lib/model";
import { copyFixture } from "@/lib/testing/fixtures";
import { GET as health } from "./source-health/route";
import { GET as logs } from "./logs/route";
import { GET as log } from "./logs/[source]/[name]/route";
import { GET as documents } from "./documents/route";
import { GET as document } from "./documents/[source]/[name]/route";

const ID = "orchestrate_20260125_143000_a1b2c3d4";
const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA", "MAILROOM_RESCAN_MS", "MAILROOM_READONLY"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let parent: string;
let flow: string;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-wave2-views-"));
  flow = copyFixture("workflow", path.join(parent, "flow"));
  const board = copyFixture("shogun", path.join(parent, "board"));
  process.env.MAILROOM_ROOT = [flow, board].join(":");
  process.env.MAILROOM_DATA = path.join(parent, "data");
  process.env.MAILROOM_RESCAN_MS = "60000";
  delete process.env.MAILROOM_READONLY;
});
afterAll(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  fs.rmSync(parent, { recursive: true, force: true });
});

const get = (p: string) => new NextRequest(`http://localhost${p}`);
const params = (source: string, name: string) => ({ params: Promise.resolve({ source, name }) });
const beat = (agent: string, at: Date) => fs.writeFileSync(path.join(flow, ".claude", "workflow", ID, "state", "heartbeat", `${agent}.ts`), at.toISOString());

async function agentHealth(name: string): Promise<string | undefined> {
  const body = (await (await health(get("/api/source-health"))).json()) as { sources: SourceHealthItem[] };
  const source = body.sources.find((s) => s.source === "flow-workflow");
  return source?.health?.agents.find((a) => a.name === name)?.health;
}

async function errorOf(response: Response): Promise<{ status: number; body: ApiErrorBody }> {
  return { status: response.status, body: (await response.json()) as ApiErrorBody };
}

function viewsBehave() {
  it("the health strip's data names workflow agents healthy or unresponsive by their heartbeat, and shogun none", async () => {
    const body = (await (await health(get("/api/source-health"))).json()) as { sources: SourceHealthItem[] };
    expect(body.sources.map((s) => s.source).sort()).toEqual(["board-shogun", "flow-workflow"]);
    expect(body.sources.find((s) => s.source === "board-shogun")?.health).toBeNull();
    expect(body.sources.find((s) => s.source === "flow-workflow")?.health?.session).toEqual({ name: ID, startedAt: "2026-01-25T14:30:00.000Z" });
    beat("agent_security", new Date());
    expect(await agentHealth("agent_security")).toBe("healthy");
    // Made old: a heartbeat 31 s back is past the protocol's 30 s.
    beat("agent_security", new Date(Date.now() - 31_000));
    expect(await agentHealth("agent_security")).toBe("unresponsive");
  });

  it("lists and tails the workflow's logs; a missing log is a 404 and a path is a 400, in the one error shape", async () => {
    const body = (await (await logs(get("/api/logs"))).json()) as { sources: { source: string; logs: { name: string }[] }[] };
    expect(body.sources).toEqual([{ source: "flow-workflow", logs: expect.arrayContaining([expect.objectContaining({ name: `${ID}.events.jsonl` })]) }]);
    const name = `${ID}.errors.jsonl`;
    const slice = (await (await log(get(`/api/logs/flow-workflow/${name}`), params("flow-workflow", name))).json()) as { text: string };
    expect(slice.text).toContain('"error_type":"agent_failure"');
    const missing = await errorOf(await log(get("/api/logs/flow-workflow/x"), params("flow-workflow", `${ID}.nope.jsonl`)));
    expect(missing).toEqual({ status: 404, body: { error: { code: "not_found", message: `no log "${ID}.nope.jsonl" in source "flow-workflow"` } } });
    const traversal = await errorOf(await log(get("/api/logs/flow-workflow/x"), params("flow-workflow", `../${ID}/logs/errors.jsonl`)));
    expect(traversal.status).toBe(400);
    expect(traversal.body.error).toMatchObject({ code: "bad_name", message: expect.stringMatching(/^name: a file name is one path part/) });
  });

  it("shows shogun's dashboard as a document: listed, read as text, 404 when gone, 400 for a path", async () => {
    const list = (await (await documents(get("/api/documents"))).json()) as { sources: unknown[] };
    expect(list.sources).toEqual([{ source: "board-shogun", documents: [{ name: "dashboard.md", relPath: "dashboard.md" }] }]);
    const doc = (await (await document(get("/api/documents/board-shogun/dashboard.md"), params("board-shogun", "dashboard.md"))).json()) as { text: string };
    expect(doc.text).toMatch(/^# 📊 戦況報告\n/);
    const other = await errorOf(await document(get("/x"), params("board-shogun", "README.md")));
    expect(other).toEqual({ status: 404, body: { error: { code: "not_found", message: 'no document "README.md" in source "board-shogun"' } } });
    expect((await errorOf(await document(get("/x"), params("board-shogun", "../../etc/passwd")))).status).toBe(400);
    expect((await errorOf(await document(get("/x"), params("board/..", "dashboard.md")))).body.error.code).toBe("bad_name");
  });
}

describe("without ingest running (each request detects the roots)", viewsBehave);

describe("with ingest running (the roots detected once per scan it adopts)", () => {
  beforeAll(async () => {
    await startIngest().scanNow();
  });
  afterAll(async () => {
    const service = startIngest();
    stopIngest();
    await service.syncPaths([]);
    closeJournals();
  });
  viewsBehave();
});
