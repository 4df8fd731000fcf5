// GET /api/charts, called directly on a copy of the IGNITE fixture: the range and agent it is asked
// for, one chart or all, and a clear 400 for what it cannot read.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Charts } from "@/lib/chart-model";
import { getJournal } from "@/lib/journal/store";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET } from "./charts/route";

let workspace: IngestedWorkspace;
beforeAll(async () => {
  workspace = await openIngestedWorkspace();
});
afterAll(() => workspace.close());

const get = async (query: string) => {
  const res = await GET(new NextRequest(`http://localhost/api/charts${query}`));
  return { status: res.status, body: (await res.json()) as Partial<Charts> & { error?: { code: string; message: string } } };
};
const sum = (c: { series: { values: number[] }[] } | undefined) => (c?.series ?? []).flatMap((s) => s.values).reduce((a, b) => a + b, 0);

describe("GET /api/charts", () => {
  it("counts every message (dead letters apart) of a custom range, by agent and by type alike", async () => {
    const { db } = getJournal();
    const expected = db.prepare("SELECT count(*) FROM messages WHERE folder != 'dead_letter' AND sort_ms >= ? AND sort_ms < ?").pluck()
      .get(Date.parse("2026-11-01T00:00:00Z"), Date.parse("2026-12-01T00:00:00Z")) as number;
    expect(expected).toBeGreaterThan(0);
    const { status, body } = await get("?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z");
    expect(status).toBe(200);
    expect(body.window).toEqual({ from: Date.parse("2026-11-01T00:00:00Z"), to: Date.parse("2026-12-01T00:00:00Z"), bucketMs: 6 * 3_600_000 });
    expect(sum(body.byAgent)).toBe(expected);
    expect(sum(body.byType)).toBe(expected);
    expect(body.failures).toBeDefined();
    expect(body.hops).toBeDefined();
  });

  it("charts one agent's messages, and one chart when asked", async () => {
    const { db } = getJournal();
    const agent = db.prepare("SELECT agent FROM messages WHERE folder != 'dead_letter' GROUP BY agent ORDER BY count(*) DESC LIMIT 1").pluck().get() as string;
    const { body } = await get(`?agent=${agent}&chart=byAgent`);
    expect(body.byAgent?.series.map((s) => s.name)).toEqual([agent]);
    expect(Object.keys(body).sort()).toEqual(["byAgent", "window"]);
  });

  it("charts an agent of any protocol's naming, a KickLang channel's included (none here: empty, not refused)", async () => {
    const { status, body } = await get(`?agent=${encodeURIComponent("⫻command/dispatch")}&chart=byAgent`);
    expect(status).toBe(200);
    expect(body.byAgent?.series).toEqual([]);
  });

  it("says what is wrong with a range, an agent or a chart", async () => {
    expect(await get("?range=2h")).toMatchObject({ status: 400, body: { error: { code: "bad_range", message: expect.stringContaining('unknown range "2h"') } } });
    expect(await get("?from=2026-11-02&to=2026-11-01")).toMatchObject({ status: 400, body: { error: { message: "from must be before to" } } });
    expect(await get("?from=yesterday&to=2026-11-01")).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('from "yesterday" is not a time') } } });
    expect(await get(`?agent=${"a".repeat(1025)}`)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("agent is longer than 1024") } } });
    expect(await get("?agent=a%00b")).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("agent holds a control character") } } });
    expect(await get("?chart=pie")).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("chart must be one of") } } });
  });
});
