// The chart queries against a journal with known counts, written through the real writer.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OTHER } from "@/lib/chart-model";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { CATALOGS, catalogOf } from "@/lib/protocols/catalog";
import { chartWindow, countsBy, failures, hopChart, hopSampling, hopSql, hopsOf, HOP_SAMPLE, queryCharts } from "./charts";
import { FAILURE_EVENT_SQL, FAILURE_EVENT_STATUSES } from "./schema-sql";

const T0 = Date.parse("2026-11-20T00:00:00Z");
const MIN = 60_000;
let journal: TempJournal;
let now: number;

beforeEach(() => {
  now = T0;
  journal = openTempJournal(() => now);
  journal.writer.upsertSource({ id: "ws-ignite", protocol: "ignite", root: journal.dir, error: null });
});
afterEach(() => journal.close());

/** A message to `agent` dated `atMin` minutes after T0, first seen then. */
function send(n: number, agent: string, atMin: number, type = "task_assignment"): string {
  now = T0 + atMin * MIN;
  const rec = fileRecord(`queue/${agent}/m${n}.mime`, { messageId: `<${n}@x>`, date: new Date(now).toISOString(), type }, { mtimeMs: now, size: 10, ino: n });
  return journal.writer.record(rec).key;
}

/** The message delivered (moved to processed/) `afterMin` minutes later, and gone `goneMin` after that. */
function deliver(key: string, n: number, agent: string, atMin: number, goneMin?: number): void {
  now = T0 + atMin * MIN;
  const rel = `queue/${agent}/processed/m${n}.mime`;
  journal.writer.record(fileRecord(rel, { messageId: `<${n}@x>`, status: "delivered" }, { mtimeMs: now, size: 10, ino: n }), key);
  if (goneMin !== undefined) {
    now += goneMin * MIN;
    journal.writer.markGone("ws-ignite", rel);
  }
}

/** Two hours: 120 buckets of a minute. */
const twoHours = { from: T0, to: T0 + 120 * MIN };

describe("countsBy", () => {
  it("counts messages per bucket, per agent and per type, within the window only", () => {
    send(1, "leader", 0);
    send(2, "leader", 0.5, "strategy_request");
    send(3, "coder", 10);
    send(4, "coder", 121); // after the window
    const w = chartWindow(journal.db, { window: twoHours });
    expect(w.bucketMs).toBe(MIN);
    const byAgent = countsBy(journal.db, w, "agent");
    expect(byAgent.buckets).toHaveLength(120);
    expect(byAgent.series.map((s) => s.name)).toEqual(["leader", "coder"]);
    expect(byAgent.series[0]?.values[0]).toBe(2);
    expect(byAgent.series[1]?.values[10]).toBe(1);
    expect(byAgent.series[1]?.values.reduce((a, b) => a + b)).toBe(1);
    const byType = countsBy(journal.db, w, "type", "leader");
    expect(byType.series).toEqual([
      { name: "strategy_request", values: expect.any(Array) },
      { name: "task_assignment", values: expect.any(Array) },
    ]);
    expect(byType.series.map((s) => s.values[0])).toEqual([1, 1]);
  });

  it("counts whole-hour buckets from the counts per hour, as the same messages counted one by one", () => {
    const agents = ["leader", "coder", "reviewer"];
    for (let i = 0; i < 60; i++) send(i, agents[i % 3] ?? "leader", i * 167, i % 2 ? "a" : "b");
    const w = chartWindow(journal.db, { window: { from: T0 - 5 * MIN, to: T0 + 7 * 24 * 60 * MIN } });
    expect(w).toMatchObject({ from: T0 - 2 * 60 * MIN, bucketMs: 2 * 60 * MIN });
    const hourly = countsBy(journal.db, w, "agent");
    // The agent filter takes the other path: one agent's counts must be its column of the whole.
    for (const agent of agents) expect(countsBy(journal.db, w, "agent", agent).series[0]?.values).toEqual(hourly.series.find((s) => s.name === agent)?.values);
    expect(hourly.series.flatMap((s) => s.values).reduce((a, b) => a + b)).toBe(60);
    expect(countsBy(journal.db, w, "type").series.map((s) => s.values.reduce((a, b) => a + b))).toEqual([30, 30]);
  });

  it("sums the smaller series past eight into other", () => {
    for (let i = 0; i < 10; i++) for (let j = 0; j <= i; j++) send(i * 100 + j, `agent${i}`, 1);
    const series = countsBy(journal.db, chartWindow(journal.db, { window: twoHours }), "agent").series;
    expect(series).toHaveLength(8);
    expect(series[0]).toMatchObject({ name: "agent9" });
    // agent0 (1), agent1 (2) and agent2 (3) are the smallest three.
    expect(series.at(-1)).toMatchObject({ name: OTHER });
    expect(series.at(-1)?.values[1]).toBe(6);
  });
});

describe("failures", () => {
  it("counts a dead letter once although IGNITE journals it as two events", () => {
    const key = send(1, "coder", 1);
    now = T0 + 5 * MIN;
    const letter = journal.writer.record(
      fileRecord("queue/dead_letter/m1.mime", { messageId: "<dl1@x>", status: "dead", type: "dead_letter" }, { mtimeMs: now, size: 10, ino: 99 }),
    ).key;
    journal.writer.linkDeadLetter(letter, key, "dead-lettered after 3 retries");
    journal.writer.markGone("ws-ignite", "queue/coder/m1.mime");
    // An error of another message, by a move into processed/ marked error.
    const other = send(2, "leader", 7);
    now = T0 + 8 * MIN;
    journal.writer.record(fileRecord("queue/leader/processed/m2.mime", { messageId: "<2@x>", status: "error" }, { mtimeMs: now, size: 10, ino: 2 }), other);
    const w = chartWindow(journal.db, { window: twoHours });
    const f = failures(journal.db, w);
    const total = (name: string) => f.series.find((s) => s.name === name)?.values.reduce((a, b) => a + b) ?? 0;
    expect(total("dead")).toBe(1);
    expect(total("error")).toBe(1);
    expect(f.series.find((s) => s.name === "error")?.values[8]).toBe(1);
    expect(failures(journal.db, w, "leader").series.map((s) => s.name)).toEqual(["error"]);
  });
});

describe("the failure index (migration 20)", () => {
  it("knows every status a catalog calls failed (a new one needs a new migration)", () => {
    const failed = new Set(CATALOGS.flatMap((c) => c.statuses.filter((st) => st.state === "failed").map((st) => st.id)));
    expect([...failed].sort()).toEqual([...FAILURE_EVENT_STATUSES].sort());
  });

  it("is what the failures query reads", () => {
    const plan = journal.db
      .prepare(`EXPLAIN QUERY PLAN SELECT key FROM events e WHERE ${FAILURE_EVENT_SQL} AND at_ms >= 0 AND at_ms < 1`)
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toContain("events_failures");
  });
});

describe("hopChart", () => {
  it("gives nearest-rank percentiles of queue → processed and processed → gone", () => {
    // Ten messages at minute 0, delivered after 1…10 minutes; gone 2 minutes after that.
    const keys = Array.from({ length: 10 }, (_, i) => send(i + 1, "coder", 0));
    keys.forEach((key, i) => deliver(key, i + 1, "coder", i + 1, 2));
    const w = chartWindow(journal.db, { window: twoHours });
    const [delivery, handling] = catalogOf("ignite").hops;
    if (!delivery || !handling) throw new Error("IGNITE has two hops");
    const d = hopChart(journal.db, w, "ignite", delivery);
    expect(d.overall).toEqual({ n: 10, p50: 5 * MIN, p90: 9 * MIN, p99: 10 * MIN });
    expect(d.p50[0]).toBe(5 * MIN);
    expect(d.p50[1]).toBeNull();
    const h = hopChart(journal.db, w, "ignite", handling);
    expect(h.overall).toEqual({ n: 10, p50: 2 * MIN, p90: 2 * MIN, p99: 2 * MIN });
    // Charted by the message's date (minute 0), whenever the hop started.
    expect(h.p50[0]).toBe(2 * MIN);
  });

  it("leaves out a hop not finished yet, and another agent's", () => {
    send(1, "coder", 0);
    deliver(send(2, "leader", 0), 2, "leader", 3);
    const w = chartWindow(journal.db, { window: twoHours });
    const delivery = catalogOf("ignite").hops[0];
    if (!delivery) throw new Error("IGNITE has hops");
    expect(hopChart(journal.db, w, "ignite", delivery).overall).toMatchObject({ n: 1, p50: 3 * MIN });
    expect(hopChart(journal.db, w, "ignite", delivery, "coder").overall.n).toBe(0);
  });
  it("answers every hop of every protocol from one query, each as it would alone", () => {
    const keys = Array.from({ length: 6 }, (_, i) => send(i + 1, "coder", 0));
    keys.forEach((key, i) => deliver(key, i + 1, "coder", i + 1, i % 2 === 0 ? 2 : undefined));
    const w = chartWindow(journal.db, { window: twoHours });
    const [delivery, handling] = catalogOf("ignite").hops;
    if (!delivery || !handling) throw new Error("IGNITE has two hops");
    // The same IGNITE hop asked as another protocol's finds none of IGNITE's messages.
    const together = hopsOf(journal.db, w, [{ protocol: "ignite", hop: delivery }, { protocol: "workflow", hop: delivery }, { protocol: "ignite", hop: handling }]);
    expect(together.map((h) => [h.protocol, h.hop, h.overall.n])).toEqual([["ignite", "delivery", 6], ["workflow", "delivery", 0], ["ignite", "handling", 3]]);
    expect(together[0]).toEqual(hopChart(journal.db, w, "ignite", delivery));
    expect(together[2]).toEqual(hopChart(journal.db, w, "ignite", handling));
  });
});

describe("hopSampling", () => {
  it("takes every message up to HOP_SAMPLE, then 1 in as many as keeps it there", () => {
    send(1, "coder", 0);
    const w = chartWindow(journal.db, { window: twoHours });
    expect(hopSampling(journal.db, w)).toBe(1);
    const insert = journal.db.prepare(
      "INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, last_path, status, updated_ms, seq) VALUES (?, 'ws-ignite', 'ignite', ?, 'coder', 'queue', 'x', 'queued', 0, 0)",
    );
    for (let i = 0; i < HOP_SAMPLE * 2; i++) insert.run(`bulk${i}`, T0 + 1000);
    expect(hopSampling(journal.db, w)).toBe(3);
    // A window of part hours counts its ends one by one and its whole hours from the counts per
    // hour: 2,001 before minute 50 of the first hour are outside, 1,001 after it inside.
    for (let i = 0; i < HOP_SAMPLE + 1; i++) insert.run(`late${i}`, T0 + 55 * MIN);
    const parts = { from: T0 + 50 * MIN, to: T0 + 3 * 60 * MIN + 10 * MIN };
    expect(hopSampling(journal.db, { from: parts.from, to: parts.to, bucketMs: MIN })).toBe(2);
    for (let i = 0; i < HOP_SAMPLE; i++) insert.run(`whole${i}`, T0 + 90 * MIN);
    for (let i = 0; i < HOP_SAMPLE; i++) insert.run(`end${i}`, T0 + 3 * 60 * MIN + 5 * MIN);
    for (let i = 0; i < HOP_SAMPLE * 5; i++) insert.run(`after${i}`, T0 + 3 * 60 * MIN + 10 * MIN);
    expect(hopSampling(journal.db, { from: parts.from, to: parts.to, bucketMs: MIN })).toBe(4);
  });

  it("reads only the sampled messages, by id", () => {
    const delivery = catalogOf("ignite").hops[0];
    if (!delivery) throw new Error("IGNITE has hops");
    // The planner is judged on a journal the size of the bench's: 10,000 rows, analyzed.
    const insert = journal.db.prepare(
      "INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, last_path, status, updated_ms, seq) VALUES (?, 'ws-ignite', 'ignite', ?, 'coder', 'queue', 'x', 'queued', 0, 0)",
    );
    for (let i = 0; i < 10_000; i++) insert.run(`bulk${i}`, T0 + i);
    journal.db.exec("ANALYZE");
    const q = hopSql([{ protocol: "ignite", hop: delivery }]);
    const plan = journal.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params(chartWindow(journal.db, { window: twoHours }), 10)) as { detail: string }[];
    const steps = plan.map((p) => p.detail);
    expect(steps).toContain("SEARCH m USING INTEGER PRIMARY KEY (rowid=?)");
    expect(steps).not.toContain("SCAN m");
  });

  it("finds the same sample by looking its ids up as by reading the window, and reads no other message", () => {
    const delivery = catalogOf("ignite").hops[0];
    if (!delivery) throw new Error("IGNITE has hops");
    const keys = Array.from({ length: 40 }, (_, i) => send(i + 1, i % 2 ? "coder" : "leader", i));
    keys.forEach((key, i) => deliver(key, i + 1, i % 2 ? "coder" : "leader", i + 1 + (i % 7)));
    send(99, "coder", 200); // after the window
    journal.db.exec("ANALYZE");
    const w = chartWindow(journal.db, { window: twoHours });
    const maxId = journal.db.prepare("SELECT max(id) FROM messages").pluck().get() as number;
    for (const agent of [undefined, "coder"]) {
      for (const every of [1, 3]) {
        const [scan, probe] = [false, true].map((p) => hopSql([{ protocol: "ignite", hop: delivery }], agent, p));
        if (!scan || !probe) throw new Error("two queries");
        const rows = journal.db.prepare(probe.sql).all(...probe.params(w, every, maxId));
        expect(rows).toEqual(journal.db.prepare(scan.sql).all(...scan.params(w, every)));
        expect(rows.length).toBeGreaterThan(0);
      }
    }
    const probe = hopSql([{ protocol: "ignite", hop: delivery }], undefined, true);
    const plan = journal.db.prepare(`EXPLAIN QUERY PLAN ${probe.sql}`).all(...probe.params(w, 3, maxId)) as { detail: string }[];
    expect(plan.map((p) => p.detail)).toContain("SEARCH m USING INTEGER PRIMARY KEY (rowid=?)");
    expect(plan.map((p) => p.detail).filter((d) => /^SCAN m\b|messages_chart/.test(d))).toEqual([]);
  });

  it("times 1 in `every` messages", () => {
    const keys = Array.from({ length: 10 }, (_, i) => send(i + 1, "coder", 0));
    keys.forEach((key, i) => deliver(key, i + 1, "coder", 1));
    const delivery = catalogOf("ignite").hops[0];
    if (!delivery) throw new Error("IGNITE has hops");
    expect(hopChart(journal.db, chartWindow(journal.db, { window: twoHours }), "ignite", delivery, undefined, 2).overall.n).toBe(5);
  });
});

describe("queryCharts", () => {
  it("charts from the oldest message to now without a window, and drops hops nobody made", () => {
    send(1, "coder", 0);
    now = T0 + 30 * MIN;
    const c = queryCharts(journal.db, { window: null, now }, CATALOGS);
    // From the oldest message to now, in whole buckets of 30 s.
    expect(c.window).toEqual({ from: T0, to: now + 30_000, bucketMs: 30_000 });
    expect(c.hops).toEqual([]);
    expect(c.byAgent?.series).toEqual([{ name: "coder", values: expect.any(Array) }]);
  });
});
