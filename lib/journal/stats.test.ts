// The stats every overview polls are computed once per change of the journal, not once per poll,
// and count each agent by its own protocol's status words.
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EntryIngest } from "@/lib/ingest/entry-ingest";
import { discoverSources } from "@/lib/ingest/sources";
import { catalogOf } from "@/lib/protocols/catalog";
import { copyFixture } from "@/lib/testing/fixtures";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import type { Db } from "./db";
import { queryStats, versionedStats } from "./stats";
import type { JournalWriter } from "./writer";

let journal: TempJournal;
let db: Db;
let now: number;
let writer: JournalWriter;

beforeEach(() => {
  now = Date.parse("2026-11-20T00:00:00Z");
  journal = openTempJournal(() => now);
  ({ db, writer } = journal);
  writer.upsertSource({ id: "ws-ignite", protocol: "ignite", root: journal.dir, error: null });
  writer.record(fileRecord("queue/leader/a.mime", { messageId: "<a@x>" }));
});
afterEach(() => journal.close());

describe("versionedStats", () => {
  it("hands back the same stats while nothing changed", () => {
    const first = versionedStats(db);
    expect(first.stats.totals.messages).toBe(1);
    expect(versionedStats(db).stats).toBe(first.stats);
  });

  it("computes them again after a new message", () => {
    const first = versionedStats(db);
    writer.record(fileRecord("queue/leader/b.mime", { messageId: "<b@x>" }, { mtimeMs: 2, size: 2, ino: 2 }));
    const next = versionedStats(db);
    expect(next.version).not.toBe(first.version);
    expect(next.stats.totals.messages).toBe(2);
  });

  it("computes them again when an agent's folder appears (no message yet)", () => {
    const first = versionedStats(db);
    writer.setAgents("ws-ignite", ["leader", "ignitian_9"]);
    const next = versionedStats(db);
    expect(next.version).not.toBe(first.version);
    expect(next.stats.agents.map((a) => a.agent)).toContain("ignitian_9");
  });

  it("lists no agent without a name: a workspace-wide file (a workflow's logs) belongs to no one", () => {
    writer.setAgents("ws-ignite", ["", "agent_security"]);
    expect(versionedStats(db).stats.agents.map((a) => a.agent)).not.toContain("");
    expect(versionedStats(db).stats.agents.map((a) => a.agent)).toContain("agent_security");
  });

  it("lists no agent named after the dead-letter queue: neither its folder nor a letter archived by a requeue or discard", () => {
    writer.setAgents("ws-ignite", ["leader", "dead_letter"]);
    writer.record({ ...fileRecord("queue/dead_letter/x.mime", { messageId: "<dl@x>" }, { mtimeMs: 2, size: 2, ino: 2 }), placement: { agent: "dead_letter", folder: "archive" } });
    const { stats } = versionedStats(db);
    expect(stats.agents.map((a) => a.agent)).toEqual(["leader"]);
    expect(stats.totals.messages).toBe(2);
  });

  it("never keeps what it read inside a transaction (the rows may be rolled back)", () => {
    versionedStats(db);
    expect(() =>
      writer.transaction(() => {
        writer.record(fileRecord("queue/leader/processed/b.mime", { messageId: "<b@x>", status: "delivered" }, { mtimeMs: 2, size: 2, ino: 2 }));
        expect(versionedStats(db).stats.totals.delivered).toBe(1);
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    // The next write takes the same seq the rolled-back one had.
    writer.record(fileRecord("queue/leader/c.mime", { messageId: "<c@x>" }, { mtimeMs: 3, size: 3, ino: 3 }));
    expect(versionedStats(db).stats.totals).toMatchObject({ messages: 2, queued: 2 });
    expect(versionedStats(db).stats.totals.delivered).toBeUndefined();
  });

  it("computes them again after a prune removed messages", () => {
    writer.record(fileRecord("queue/leader/processed/c.mime", { messageId: "<c@x>", status: "delivered" }, { mtimeMs: 3, size: 3, ino: 3 }));
    now += 1000;
    writer.markGone("ws-ignite", "queue/leader/processed/c.mime");
    const first = versionedStats(db);
    expect(first.stats.totals.completed).toBe(1);
    now += 40 * 86_400_000;
    expect(writer.prune(30 * 86_400_000, 0)).toBe(1);
    const next = versionedStats(db);
    expect(next.version).not.toBe(first.version);
    expect(next.stats.totals.completed).toBeUndefined();
  });
});

describe("queryStats over sources of several protocols", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
  });

  /** IGNITE's leader (beforeEach) beside a fixture of another protocol, ingested as the service does. */
  async function withFixture(name: string): Promise<string> {
    const root = copyFixture(name);
    roots.push(root);
    for (const s of await discoverSources([root])) {
      if (!s.entries) continue;
      writer.upsertSource({ id: s.id, protocol: s.protocol, root, error: null });
      const scan = await new EntryIngest(db, () => now).scan(s.entries);
      writer.setAgents(s.id, scan.agents);
    }
    const ids = db.prepare("SELECT id FROM sources WHERE protocol = ?").pluck().all(name) as string[];
    expect(ids).toHaveLength(1);
    return ids[0] ?? "";
  }

  /** An agent's messages by status, straight from the messages table (dead letters apart). */
  const scanned = (source: string, agent: string) =>
    Object.fromEntries(
      (db.prepare("SELECT status, COUNT(*) AS n FROM messages WHERE source = ? AND agent = ? AND folder != 'dead_letter' GROUP BY 1").all(source, agent) as {
        status: string;
        n: number;
      }[]).map((r) => [r.status, r.n]),
    );

  it("counts each agent by its own protocol's status words, IGNITE's fields read from them", async () => {
    const shogun = await withFixture("shogun");
    const { agents } = queryStats(db);
    const leader = agents.find((a) => a.source === "ws-ignite" && a.agent === "leader");
    expect(leader).toMatchObject({ protocol: "ignite", counts: { queued: 1 }, queued: 1, processing: 0 });
    const theirs = agents.filter((a) => a.source === shogun);
    expect(theirs.length).toBeGreaterThan(2);
    const words = new Set(catalogOf("shogun").statuses.map((s) => s.id));
    for (const a of theirs) {
      expect(a.protocol).toBe("shogun");
      expect(a.counts).toEqual(scanned(shogun, a.agent));
      for (const w of Object.keys(a.counts)) expect(words.has(w)).toBe(true);
      expect(a).toMatchObject({ queued: 0, processing: 0, delivered: 0, retrying: 0, dead: 0 });
    }
    expect(theirs.some((a) => (a.counts.unread ?? 0) > 0)).toBe(true);
    expect(theirs.some((a) => (a.counts.done ?? 0) > 0 || (a.counts.assigned ?? 0) > 0)).toBe(true);
  });

  it("dates another protocol's oldest waiting entry by the entry's own date, over its open statuses", async () => {
    const shogun = await withFixture("shogun");
    const open = catalogOf("shogun").statuses.filter((s) => s.state === "open").map((s) => s.id);
    for (const a of queryStats(db).agents.filter((x) => x.source === shogun)) {
      const oldest = db
        .prepare(`SELECT MIN(sort_ms) FROM messages WHERE source = ? AND agent = ? AND status IN (${open.map(() => "?").join(", ")})`)
        .pluck()
        .get(shogun, a.agent, ...open) as number | null;
      expect(a.oldestQueuedAt).toBe(oldest === null ? null : new Date(oldest).toISOString());
    }
    expect(queryStats(db).agents.some((a) => a.source === shogun && a.oldestQueuedAt !== null)).toBe(true);
  });

  it("counts as waiting only entries still on disk: a task overwritten in its file waits for no one", async () => {
    const shogun = await withFixture("shogun");
    const ashigaru1 = () => queryStats(db).agents.find((a) => a.source === shogun && a.agent === "ashigaru1");
    const before = ashigaru1();
    expect(before?.waiting).toBeGreaterThan(0);
    // karo hands ashigaru1 its next task over the last one, which never said done.
    const root = roots.at(-1) ?? "";
    const task = `${root}/queue/tasks/ashigaru1.yaml`;
    fs.writeFileSync(task, fs.readFileSync(task, "utf8").replace("subtask_048a2", "subtask_049a").replace(/\n {2}redo_of: .*\n/, "\n"));
    const [source] = (await discoverSources([root])).flatMap((x) => (x.entries ? [x.entries] : []));
    if (!source) throw new Error("the fixture is a shogun source");
    await new EntryIngest(db, () => now).scan(source);
    const after = ashigaru1();
    // Both tasks are in its history, the first as it was last seen; only the one on disk waits.
    expect(after?.counts.assigned).toBe((before?.counts.assigned ?? 0) + 1);
    expect(after?.waiting).toBe(before?.waiting);
  });

  it("counts overdue entries (an ack not written in time) as the agent's stuck", async () => {
    const workflow = await withFixture("workflow");
    const before = queryStats(db).agents.filter((a) => a.source === workflow);
    expect(before.every((a) => a.protocol === "workflow")).toBe(true);
    now += 365 * 86_400_000;
    const overdue = new EntryIngest(db, () => now).sweepDue();
    expect(overdue).toBeGreaterThan(0);
    const after = queryStats(db).agents.filter((a) => a.source === workflow);
    expect(after.reduce((n, a) => n + a.stuck, 0)).toBe(overdue);
  });

  it("keeps the protocol of a source no longer configured, from its messages", async () => {
    const shogun = await withFixture("shogun");
    writer.keepOnlySources(["ws-ignite"]);
    const theirs = queryStats(db).agents.filter((a) => a.source === shogun);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((a) => a.protocol === "shogun" && Object.keys(a.counts).length > 0)).toBe(true);
  });
});
