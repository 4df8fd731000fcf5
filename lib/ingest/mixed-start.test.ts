// A start on a tree of several protocols: the entry sources' newest commit is journaled before
// IGNITE's load, which still takes its bulk path beside those few rows, and the start ends with
// every message of both, as a rescan finds them.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { BulkLoad } from "@/lib/journal/bulk";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { loadConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { EntryIngest } from "./entry-ingest";
import { IngestService } from "./service";

const temp = tempDirs();
afterEach(() => closeJournals());

it("journals the entry sources' newest before IGNITE's load, which loads in bulk beside them", async () => {
  const root = copyFixture("workflow", temp("mailroom-mixed-root-"));
  copyFixture("ignite", root);
  const data = temp("mailroom-mixed-start-");
  const journal = openJournal(path.join(data, "journal.db"));
  const byProtocol = () =>
    Object.fromEntries(journal.db.prepare("SELECT s.protocol, count(*) FROM messages m JOIN sources s ON s.id = m.source GROUP BY 1").raw().all() as [string, number][]);
  const begin = journal.writer.beginBulkLoad.bind(journal.writer);
  const atBegin: { before: Record<string, number>; bulk: BulkLoad | null }[] = [];
  vi.spyOn(journal.writer, "beginBulkLoad").mockImplementation((source) => {
    const before = byProtocol();
    const bulk = begin(source);
    atBegin.push({ before, bulk });
    return bulk;
  });
  const service = new IngestService(loadConfig({ MAILROOM_ROOT: root, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "600000" }), journal);
  try {
    await service.start();
    expect(atBegin).toHaveLength(1);
    expect(atBegin[0]?.before.workflow).toBeGreaterThan(0);
    expect(atBegin[0]?.before.ignite).toBeUndefined();
    expect(atBegin[0]?.bulk).not.toBeNull();
    const started = byProtocol();
    expect(started.ignite).toBeGreaterThan(0);
    await service.periodicRescan();
    expect(byProtocol()).toEqual(started);
  } finally {
    service.stop();
  }
});

it("lists the entry sources once, and journals what is written to them during IGNITE's load", async () => {
  const root = copyFixture("workflow", temp("mailroom-mixed-root-"));
  copyFixture("ignite", root);
  const data = temp("mailroom-mixed-start-");
  const journal = openJournal(path.join(data, "journal.db"));
  const channel = path.join(root, ".claude/workflow/orchestrate_20260125_143000_a1b2c3d4/channel/agents/agent_security.jsonl");
  const appended = { id: "msg_20260125143500_appended", timestamp: "2026-01-25T14:35:00.000Z", from: "orchestrator", to: "agent_security", type: "task_assign", payload: { task_id: "task_009" } };
  // Between the start's two turns of the entry sources: while IGNITE's load begins.
  const begin = journal.writer.beginBulkLoad.bind(journal.writer);
  vi.spyOn(journal.writer, "beginBulkLoad").mockImplementation((source) => {
    fs.appendFileSync(channel, `${JSON.stringify(appended)}\n`);
    return begin(source);
  });
  const plans = vi.spyOn(EntryIngest.prototype, "plan");
  const service = new IngestService(loadConfig({ MAILROOM_ROOT: root, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "600000" }), journal);
  try {
    await service.start();
    // Planned once in each turn, the second from the first's listing.
    expect(plans.mock.calls.map(([, listed]) => listed !== undefined)).toEqual([false, true]);
    // The append comes through the watch on the folders the first turn listed (no rescan for 10 minutes).
    const journaled = () => journal.db.prepare("SELECT count(*) FROM messages WHERE message_id = ?").pluck().get(appended.id) === 1;
    for (let waited = 0; !journaled() && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(journaled()).toBe(true);
  } finally {
    service.stop();
    plans.mockRestore();
  }
});
