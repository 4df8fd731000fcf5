// A periodic rescan lists the tree before its turn (IngestService.periodicRescan), so by the time
// it reconciles, file events may have moved things. A stale listing must never invent or lose a message.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";
import { openIgnite } from "@/lib/protocols/ignite/reader";
import { archivePathOf } from "@/lib/operations/paths";
import { copyFixture } from "@/lib/testing/fixtures";
import { describeLoad, scanSource } from "./scan";
import type { ReadableSource } from "./sync";

let ws: string;
let data: string;
let db: Db;
let writer: JournalWriter;
let source: ReadableSource;
let firstScan: Awaited<ReturnType<typeof scanSource>>;

const rel = (...parts: string[]) => [".ignite", "queue", ...parts].join("/");
const row = (p: string) => db.prepare("SELECT key, path, status, problems FROM messages WHERE path = ? OR last_path = ?").get(p, p);

beforeEach(async () => {
  ws = copyFixture("ignite");
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-scan-"));
  db = openDb(path.join(data, "journal.sqlite"));
  writer = new JournalWriter(db);
  const reader = await openIgnite(ws);
  if (!reader) throw new Error("fixture is not a workspace");
  source = { id: "s", protocol: "ignite", root: ws, reader, error: null };
  firstScan = await scanSource(source, writer, { reportProgress: false });
});
afterEach(() => {
  db.close();
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(data, { recursive: true, force: true });
});

describe("a rescan with a listing made before its turn", () => {
  it("neither marks gone a file moved in after the listing nor records the file it moved from", async () => {
    const from = rel("innovator", "improvement_request_1795136391230419.mime");
    const to = rel("innovator", "processed", "improvement_request_1795136391230419.mime");
    const before = row(from) as { key: string };
    const listing = await source.reader.list();
    // Meanwhile the monitor moves the file, and its event is journaled.
    fs.renameSync(path.join(ws, from), path.join(ws, to));
    await scanSource(source, writer, { reportProgress: false });
    expect(row(to)).toMatchObject({ key: before.key, path: to });

    await scanSource(source, writer, { reportProgress: false, listing });
    expect(row(to)).toMatchObject({ key: before.key, path: to });
    expect(db.prepare("SELECT count(*) FROM messages WHERE path = ?").pluck().get(from)).toBe(0);
  });

  it("does not record a file deleted after the listing as unreadable", async () => {
    const file = rel("ignitian_3", "task_assignment_1795136081090233.mime");
    fs.unlinkSync(path.join(ws, file));
    const listing = await source.reader.list();
    listing.push({ relPath: rel("ignitian_3", "new_1.mime"), kind: "file", size: 10, mtimeMs: Date.now(), ino: 1 });
    await scanSource(source, writer, { reportProgress: false, listing });
    expect(db.prepare("SELECT count(*) FROM messages WHERE last_path LIKE '%new_1.mime'").pluck().get()).toBe(0);
    expect(row(file)).toMatchObject({ status: "completed" });
  });
});

describe("where a first scan's time went", () => {
  it("is told for a bulk load, stage by stage, and not for later scans", async () => {
    expect(firstScan.load).toMatchObject({ workers: 0 });
    for (const ms of [firstScan.load?.listMs, firstScan.load?.loadMs, firstScan.load?.indexMs, firstScan.load?.deadLettersMs]) {
      expect(ms).toBeGreaterThanOrEqual(0);
    }
    expect((await scanSource(source, writer, { reportProgress: false })).load).toBeNull();
  });

  it("reads as one log line", () => {
    const stages = { listMs: 250, loadMs: 4_900, workers: 2, indexMs: 812, deadLettersMs: 190 };
    expect(describeLoad("/ws", 99_019, stages)).toBe(
      "first scan of /ws: 99,019 files listed in 0.25 s, loaded in 4.90 s on 2 worker threads, indexes built in 0.81 s, dead letters journaled in 0.19 s",
    );
    expect(describeLoad("/ws", 12, { ...stages, workers: 0 })).toContain("loaded in 4.90 s on the main thread");
  });
});

describe("a first scan of a tree whose dead letter was archived (requeued or discarded)", () => {
  it("journals the message the dead letter holds as discarded, not dead, still linked to it", async () => {
    const letter = rel("dead_letter", "task_assignment_1795135151004518_dlq_1795136385.mime");
    const archived = archivePathOf(letter) ?? "";
    fs.mkdirSync(path.dirname(path.join(ws, archived)), { recursive: true });
    fs.renameSync(path.join(ws, letter), path.join(ws, archived));
    const fresh = openDb(path.join(data, "fresh.sqlite"));
    try {
      await scanSource(source, new JournalWriter(fresh), { reportProgress: false });
      const held = fresh.prepare("SELECT dead_letter_of FROM messages WHERE path = ?").pluck().get(archived) as string;
      // Where it was before it was dead-lettered, not a place in the archive it never was.
      expect(fresh.prepare("SELECT status, path, last_path FROM messages WHERE key = ?").get(held)).toEqual({
        status: "discarded", path: null, last_path: rel("ignitian_2", "processed", "task_assignment_1795135151004518.mime"),
      });
      // The other dead letter, still in dead_letter/, holds a dead message as before.
      expect(fresh.prepare("SELECT count(*) FROM messages WHERE status = 'dead' AND path IS NULL").pluck().get()).toBe(1);
    } finally {
      fresh.close();
    }
  });
});
