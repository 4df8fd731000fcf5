// A channel over time, read in small chunks so that a few envelopes span several: rewritten with
// its values at new offsets, a fill cut short after a commit, and truncated to nothing. Each keeps
// one row per envelope, its key, and a history that says what happened.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { queryHistory } from "@/lib/journal/queries";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { copyFixture } from "@/lib/testing/fixtures";
import type { BatchLimits } from "./entry-batch";
import { EntryIngest, type EntrySource } from "./entry-ingest";
import { discoverSources } from "./sources";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

const envelope = (id: string, extra = "") =>
  JSON.stringify({ id, timestamp: "2026-11-26T10:00:00Z", sender: "Orchestrator", receiver: "WePlan", type: "Command", channel: "⫻command/dispatch", content: `⫻command/dispatch:task/9\nTask ID: ${id}${extra}`, correlation_id: null });

async function channelOf(count: number, limits: BatchLimits) {
  const root = copyFixture("kicklang");
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-churn-"));
  temps.push(root, data);
  const file = path.join(root, ".kicklang", "channels", "command", "dispatch.jsonl");
  const lines = Array.from({ length: count }, (_, i) => envelope(`m${i}`));
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  const journal = openJournal(path.join(data, "journal.db"));
  const ingest = new EntryIngest(journal.db, Date.now, {}, limits);
  const sources = async (): Promise<EntrySource[]> => (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  const scan = async (pause?: () => Promise<void>) => {
    for (const s of await sources()) await ingest.scan(s, pause);
  };
  const rows = () =>
    journal.db.prepare("SELECT key, message_id AS id, path, locator, problems FROM messages WHERE last_path LIKE '%dispatch.jsonl' ORDER BY id").all() as { key: string; id: string; path: string | null; locator: string; problems: string }[];
  return { file, lines, journal, scan, rows };
}

describe("a channel over time", () => {
  it("rewritten with every value at a new offset keeps one row per envelope, its key, and no problem (not 'the same id')", async () => {
    const c = await channelOf(40, { first: 100_000, rest: 100_000, tailBytes: 1e9, chunkBytes: 1024 });
    await c.scan();
    const keys = new Map(c.rows().map((r) => [r.id, r.key]));
    c.lines[0] = envelope("m0", ` ${"x".repeat(300)}`);
    fs.writeFileSync(`${c.file}.tmp`, `${c.lines.join("\n")}\n`);
    fs.renameSync(`${c.file}.tmp`, c.file);
    await c.scan();
    const after = c.rows();
    expect(after).toHaveLength(40);
    expect(after.every((r) => r.path !== null && !r.locator.includes("@") && r.problems === "[]")).toBe(true);
    expect(new Map(after.map((r) => [r.id, r.key]))).toEqual(keys);
  });

  it("truncated in place and appended to, re-read over several commits: what it still holds stays, with its history, once", async () => {
    const c = await channelOf(0, { first: 5, rest: 5, tailBytes: 1e9, chunkBytes: 1024 });
    // Half without an id: their place in the file is their locator.
    const withoutId = (n: number) => JSON.stringify({ ...(JSON.parse(envelope("x")) as Record<string, unknown>), id: undefined, content: `⫻command/dispatch:task/9\nTask ID: noid-${n}` });
    const lines = Array.from({ length: 40 }, (_, i) => (i % 2 ? envelope(`m${i}`) : withoutId(i)));
    fs.writeFileSync(c.file, `${lines.join("\n")}\n`);
    await c.scan();
    fs.writeFileSync(c.file, `${lines.slice(0, 30).join("\n")}\n`);
    fs.appendFileSync(c.file, `${envelope("new-a")}\n`);
    await c.scan();
    const rows = c.rows();
    expect(rows).toHaveLength(41);
    expect(rows.filter((r) => r.path !== null)).toHaveLength(31);
    // Before, the rest went as "truncated or replaced" with the first commit, then came back "moved back" (or as a second row).
    const kept = rows.find((r) => r.id === "m25");
    expect(queryHistory(c.journal.db, kept?.key ?? "").map((e) => e.kind)).toEqual(["seen"]);
    const gone = rows.find((r) => r.id === "m35");
    expect(queryHistory(c.journal.db, gone?.key ?? "").map((e) => e.kind)).toEqual(["seen", "gone"]);
  });

  it("with an id repeated chunks apart in one read keeps both, the later apart with a problem", async () => {
    const c = await channelOf(40, { first: 100_000, rest: 100_000, tailBytes: 1e9, chunkBytes: 1024 });
    fs.appendFileSync(c.file, `${envelope("m0", " (again)")}\n`);
    await c.scan();
    const rows = c.rows().filter((r) => r.id === "m0");
    // Before, the repeat (in a chunk of its own) took the first one's row: a message without a trace.
    expect(rows.map((r) => r.locator)).toEqual(["m0", expect.stringMatching(/^m0@\d+$/)]);
    expect(rows[1]?.problems).toContain("has the same id, m0");
  });

  it("replaced, whose re-read was cut short after a commit, is still replaced at the next scan: what it no longer holds leaves", async () => {
    const c = await channelOf(40, { first: 5, rest: 5, tailBytes: 1e9, chunkBytes: 1024 });
    await c.scan();
    fs.writeFileSync(`${c.file}.tmp`, `${c.lines.slice(0, 20).map((l) => l.replace("Orchestrator", "Orchestrator2")).join("\n")}\n`);
    fs.renameSync(`${c.file}.tmp`, c.file);
    let commits = 0;
    await expect(c.scan(async () => {
      if (++commits === 2) throw new Error("stopped mid-file");
    })).rejects.toThrow("stopped mid-file");
    await c.scan();
    // Before, the cut-short re-read had recorded the new file as read so far: the next scan went on
    // from there as an append, never as replaced, and m20-m39 stayed listed for good.
    expect(c.rows().filter((r) => r.path !== null).map((r) => r.id).sort()).toEqual(c.lines.slice(0, 20).map((_, i) => `m${i}`).sort());
  });

  it("whose first fill was cut short after a commit is read to its end at the next scan", async () => {
    const c = await channelOf(40, { first: 5, rest: 5, tailBytes: 1e9, chunkBytes: 1024 });
    let commits = 0;
    await expect(c.scan(async () => {
      if (++commits === 2) throw new Error("stopped mid-file");
    })).rejects.toThrow("stopped mid-file");
    expect(c.rows().length).toBeLessThan(40);
    // Before, the file looked unchanged (its whole size was recorded) and the rest was never read.
    await c.scan();
    expect(c.rows().filter((r) => r.path !== null)).toHaveLength(40);
  });

  it("truncated to nothing: its envelopes are gone, said so, and the next append is read from the start", async () => {
    const c = await channelOf(3, { first: 100, rest: 100, tailBytes: 1e9 });
    await c.scan();
    const first = c.rows()[0];
    fs.truncateSync(c.file, 0);
    await c.scan();
    // Before, all stayed present until new bytes came, and those were read from the old offset.
    expect(c.rows().filter((r) => r.path !== null)).toEqual([]);
    expect(queryHistory(c.journal.db, first?.key ?? "").map((e) => e.kind)).toContain("gone");
    fs.appendFileSync(c.file, `${envelope("new-1")}\n`);
    await c.scan();
    expect(c.rows().filter((r) => r.path !== null).map((r) => r.id)).toEqual(["new-1"]);
  });

  it("deleted while another channel holds an envelope with the same id: that one keeps its row, key and history", async () => {
    const c = await channelOf(1, { first: 100, rest: 100, tailBytes: 1e9 });
    const other = path.join(path.dirname(c.file), "other.jsonl");
    fs.writeFileSync(other, `${envelope("m0", " (a copy)")}\n`);
    await c.scan();
    const otherRow = () => c.journal.db.prepare("SELECT key, path FROM messages WHERE path LIKE '%other.jsonl'").get() as { key: string; path: string } | undefined;
    const before = otherRow();
    const mine = c.rows()[0];
    fs.unlinkSync(c.file);
    await c.scan();
    // Before, the deleted channel's row took the other's place ("moved"), and the other's own row and history went.
    expect(otherRow()).toEqual(before);
    expect(queryHistory(c.journal.db, before?.key ?? "").map((e) => e.kind)).toEqual(["seen"]);
    expect(queryHistory(c.journal.db, mine?.key ?? "").map((e) => [e.kind, e.detail])).toContainEqual(["gone", ".kicklang/channels/command/dispatch.jsonl was deleted"]);
    // Nor does an envelope with that id appended later to another channel take the deleted one's row ("moved back").
    fs.appendFileSync(path.join(path.dirname(c.file), "third.jsonl"), `${envelope("m0", " (later)")}\n`);
    await c.scan();
    const third = c.journal.db.prepare("SELECT key FROM messages WHERE path LIKE '%third.jsonl'").pluck().get() as string;
    expect(third).not.toBe(mine?.key);
    expect(queryHistory(c.journal.db, mine?.key ?? "").map((e) => e.kind)).not.toContain("moved");
  });
});
