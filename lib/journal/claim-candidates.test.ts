// A file without a Message-ID is matched to a journaled message by its name. That lookup runs for
// every `.mime` file, so it must read the messages without an ID, not every message of the agent.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { CANDIDATES_BY_NAME_SQL } from "./claim-candidates";

describe("claim candidates by name", () => {
  let j: TempJournal;
  beforeEach(() => {
    j = openTempJournal();
  });
  afterEach(() => j.close());

  it("finds the message of that agent and name, among those without an ID only", () => {
    j.writer.record(fileRecord("queue/leader/processed/a.mime", { messageId: null }));
    j.writer.record(fileRecord("queue/leader/b.mime", { messageId: "<b@x>" }));
    j.writer.record(fileRecord("queue/coordinator/a.mime", { messageId: null }));
    const names = (agent: string, name: string) => j.writer.claimCandidates("ws-ignite", null, agent, name).map((c) => c.lastPath);
    expect(names("leader", "a.mime")).toEqual(["queue/leader/processed/a.mime"]);
    expect(names("leader", "b.mime")).toEqual([]);
    expect(names("leader", "_.mime")).toEqual([]);
  });

  it("reads the Message-ID index's empty entries, not the agent's messages, before any statistics exist", () => {
    // A first load's dead letters are journaled before the journal is analyzed; with the agent's
    // index each letter read every earlier one (36 s of a million-message load).
    for (let i = 0; i < 50; i++) j.writer.record(fileRecord(`dead_letter/m${i}.mime`, { messageId: `<m${i}@x>` }));
    expect(j.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").pluck().get()).toBe(0);
    const plan = j.db.prepare(`EXPLAIN QUERY PLAN ${CANDIDATES_BY_NAME_SQL}`).all("ws-ignite", "dead_letter", "x.mime", "x.mime") as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/USING INDEX messages_message_id \(message_id=\?\)/);
  });
});
