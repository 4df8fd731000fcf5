// The stats every overview polls are computed once per change of the journal, not once per poll.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import type { Db } from "./db";
import { versionedStats } from "./stats";
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
