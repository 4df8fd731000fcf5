// Is the team alive, and its logs: route handlers called directly on a copy of the IGNITE fixture.
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceHealthItem } from "@/lib/model";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET as health } from "./source-health/route";
import { GET as logs } from "./logs/route";
import { GET as log } from "./logs/[source]/[name]/route";

let workspace: IngestedWorkspace;
let runtime: string;
beforeAll(async () => {
  workspace = await openIngestedWorkspace();
  runtime = path.join(workspace.ws, ".ignite");
});
afterAll(() => workspace.close());

const get = (p: string) => new NextRequest(`http://localhost${p}`);
async function healthNow(): Promise<SourceHealthItem> {
  const body = (await (await health(get("/api/source-health"))).json()) as { sources: SourceHealthItem[] };
  const first = body.sources[0];
  if (!first) throw new Error("no source");
  return first;
}
const beat = (at: Date) =>
  fs.writeFileSync(path.join(runtime, "state", "queue_monitor_heartbeat.json"), JSON.stringify({ timestamp: at.toISOString().replace(/\.\d+Z$/, "+00:00"), session: "ignite-7c3e" }));

describe("GET /api/source-health", () => {
  it("says the monitor is not running when its heartbeat is older than 3 polls, with each agent's health and the session", async () => {
    const { health: h } = await healthNow();
    expect(h?.monitor).toMatchObject({ alive: false, lastBeatAt: "2026-11-20T00:59:46.000Z" });
    expect(h?.monitor?.problem).toMatch(/not running: its last heartbeat is older than 3 polls of 10 s/);
    expect(h?.agents).toHaveLength(9);
    expect(h?.agents.find((a) => a.name === "ignitian_2")).toEqual({ name: "ignitian_2", health: "stale", detail: "IGNITIAN-2 · no session" });
    expect(h?.session).toEqual({ name: "ignite-7c3e", startedAt: "2026-11-20T00:15:42.000Z" });
  });

  it("is alive with a fresh heartbeat, and not with a pid file naming a gone process; a session file counts", async () => {
    beat(new Date());
    fs.writeFileSync(path.join(runtime, "state", ".agent_session_0"), "abc\n");
    let { health: h } = await healthNow();
    expect(h?.monitor).toMatchObject({ alive: true, problem: null });
    expect(h?.agents[0]).toMatchObject({ name: "leader", detail: "伊羽ユイ (Leader)" });
    fs.writeFileSync(path.join(runtime, "queue_monitor.pid"), "999999999\n");
    ({ health: h } = await healthNow());
    expect(h?.monitor).toMatchObject({ alive: false, problem: expect.stringContaining("process 999999999, which is gone") });
    fs.writeFileSync(path.join(runtime, "queue_monitor.pid"), `${process.pid}\n`);
    ({ health: h } = await healthNow());
    expect(h?.monitor?.alive).toBe(true);
    // The poll interval follows system.yaml: a beat 25 s old is stale at 5 s, not at 10 s.
    beat(new Date(Date.now() - 25_000));
    expect((await healthNow()).health?.monitor?.alive).toBe(true);
    fs.writeFileSync(path.join(runtime, "system.yaml"), "queue:\n  poll_interval: 5\n");
    expect((await healthNow()).health?.monitor?.alive).toBe(false);
  });
});

describe("GET /api/logs", () => {
  it("lists logs/*.log and tails one with colour codes stripped, then reads on from where it stopped", async () => {
    const body = (await (await logs(get("/api/logs"))).json()) as { sources: { source: string; logs: { name: string }[] }[] };
    const source = body.sources[0]?.source ?? "";
    expect(body.sources[0]?.logs.map((l) => l.name)).toContain("queue_monitor.log");
    const file = path.join(runtime, "logs", "leader.log");
    fs.writeFileSync(file, "[2026-11-20 09:15:45] \x1b[34m[INFO]\x1b[0m start\n[partial");
    const params = (name: string) => ({ params: Promise.resolve({ source, name }) });
    const first = (await (await log(get(`/api/logs/${source}/leader.log`), params("leader.log"))).json()) as { text: string; to: number };
    expect(first.text).toBe("[2026-11-20 09:15:45] [INFO] start\n");
    fs.appendFileSync(file, " line]\n");
    const next = (await (await log(get(`/api/logs/${source}/leader.log?from=${first.to}`), params("leader.log"))).json()) as { text: string };
    expect(next.text).toBe("[partial line]\n");
    // A name is one path part: a path is refused before any lookup.
    expect((await log(get(`/api/logs/${source}/..%2Fruntime.yaml`), params("../runtime.yaml"))).status).toBe(400);
    expect((await log(get(`/api/logs/${source}/runtime.yaml`), params("runtime.yaml"))).status).toBe(404);
    expect((await log(get(`/api/logs/${source}/x.log?from=abc`), params("x.log"))).status).toBe(400);
  });
});
