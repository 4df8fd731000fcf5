// A periodic rescan lists the tree before its turn (IngestService.periodicRescan), so by the time
// it reconciles, file events may have moved things. A stale listing must never invent or lose a message.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";
import { openIgnite } from "@/lib/protocols/ignite";
import { lifecycleSteps } from "@/lib/client/lifecycle";
import { queryHistory } from "@/lib/journal/queries";
import { VOCABULARY } from "@/lib/protocols";
import { archivePathOf } from "@/lib/operations/paths";
import { ignite } from "@/lib/protocols/fixtures";
import { copyFixture } from "@/lib/testing/fixtures";
import { describeLoad, scanSource } from "./scan";
import type { ReadableSource } from "./sync";

const { buildDeadLetter, buildMessage, messageFileName } = ignite;

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

    await scanSource(source, writer, { reportProgress: false, listing: { files: listing, unreadable: [] } });
    expect(row(to)).toMatchObject({ key: before.key, path: to });
    expect(db.prepare("SELECT count(*) FROM messages WHERE path = ?").pluck().get(from)).toBe(0);
  });

  it("does not record a file deleted after the listing as unreadable", async () => {
    const file = rel("ignitian_3", "task_assignment_1795136081090233.mime");
    fs.unlinkSync(path.join(ws, file));
    const listing = await source.reader.list();
    listing.push({ relPath: rel("ignitian_3", "new_1.mime"), kind: "file", size: 10, mtimeMs: Date.now(), ino: 1 });
    await scanSource(source, writer, { reportProgress: false, listing: { files: listing, unreadable: [] } });
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
    const stages = { listMs: 250, listedOn: 0, newestMs: null, loadMs: 4_900, workers: 2, readAhead: null, indexMs: 812, deadLettersMs: 190 };
    expect(describeLoad("/ws", 99_019, stages)).toBe(
      "first scan of /ws: 99,019 files listed in 0.25 s, loaded in 4.90 s on 2 worker threads, indexes built in 0.81 s, dead letters journaled in 0.19 s",
    );
    expect(describeLoad("/ws", 12, { ...stages, workers: 0 })).toContain("loaded in 4.90 s on the main thread");
    expect(describeLoad("/ws", 990_019, { ...stages, listedOn: 2, newestMs: 1_234 })).toContain(
      "990,019 files listed in 0.25 s on 2 worker threads, the newest chunk journaled at 1.23 s, loaded in 4.90 s",
    );
    expect(describeLoad("/ws", 99_019, { ...stages, readAhead: 96_750 })).toContain("loaded in 4.90 s on 2 worker threads (96,750 files read ahead), indexes");
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

describe("a dead letter read late: the message ends as its letters stand, and its history says so in order", () => {
  const FIRST = rel("dead_letter", "task_assignment_1795135151004518_dlq_1795136385.mime");
  const SECOND = rel("dead_letter", "task_assignment_1795135151004518_dlq_1795137000.mime");
  const heldBy = (letter: string, on: Db = db) => on.prepare("SELECT dead_letter_of FROM messages WHERE path = ?").pluck().get(letter) as string;
  const endState = (key: string, on: Db = db) => {
    const stays = lifecycleSteps(queryHistory(on, key), VOCABULARY.catalogOf("ignite"), Date.now()).map((s) => s.spent);
    return stays.filter((spent) => spent !== null).at(-1) ?? null;
  };

  /** The first dead letter requeued (archived), and a second one for the same message written half an hour after it. */
  function requeueAndDieAgain() {
    const archived = archivePathOf(FIRST) ?? "";
    const text = fs.readFileSync(path.join(ws, FIRST), "utf8");
    fs.mkdirSync(path.dirname(path.join(ws, archived)), { recursive: true });
    fs.renameSync(path.join(ws, FIRST), path.join(ws, archived));
    const second = text
      .replace(/^Message-ID: .*$/m, "Message-ID: <179513700000.1.2@ignite.local>")
      .replace(/^Date: .*$/m, "Date: Fri, 20 Nov 2026 10:30:00 +0900")
      .replace(/moved_at: ".*"/, 'moved_at: "2026-11-20T10:30:00+09:00"');
    fs.writeFileSync(path.join(ws, SECOND), second);
    return archived;
  }

  it("a first scan journals the message from its first letter, so nothing comes before it was seen", async () => {
    const archived = requeueAndDieAgain();
    const fresh = openDb(path.join(data, "fresh.sqlite"));
    try {
      await scanSource(source, new JournalWriter(fresh), { reportProgress: false });
      const key = heldBy(SECOND, fresh);
      expect(heldBy(archived, fresh)).toBe(key);
      const history = queryHistory(fresh, key);
      expect(history.map((e) => e.kind).slice(0, 3)).toEqual(["seen", "dead-lettered", "dead-lettered"]);
      expect(history[1]?.detail).toContain(archived);
      expect(history[2]?.detail).toContain(SECOND);
      expect(fresh.prepare("SELECT status FROM messages WHERE key = ?").pluck().get(key)).toBe("dead");
      expect(endState(key, fresh)).toMatch(/in dead_letter\/ so far$/);
    } finally {
      fresh.close();
    }
  });

  it("a rescan that archives one letter and finds another leaves the message dead, and its lifecycle ends there", async () => {
    const key = heldBy(FIRST);
    requeueAndDieAgain();
    await scanSource(source, writer, { reportProgress: false });
    expect(heldBy(SECOND)).toBe(key);
    expect(db.prepare("SELECT status FROM messages WHERE key = ?").pluck().get(key)).toBe("dead");
    // Settled once, as both letters stand: no "dead → discarded → dead" for a stay in the archive that never was.
    expect(queryHistory(db, key).filter((e) => e.kind === "status")).toEqual([]);
    expect(queryHistory(db, key).at(-1)).toMatchObject({ kind: "dead-lettered", detail: expect.stringContaining(SECOND) });
    expect(endState(key)).toMatch(/in dead_letter\/ so far$/);
  });

  it.each([
    ["a message", ""],
    // A NUL byte: journaled as invalid, but the monitor dead-letters it all the same.
    ["an unreadable message", "\u0000"],
  ])("%s whose deletion was journaled before its dead letter turns dead after it, and never goes back in time", async (_, tail) => {
    const date = new Date("2026-11-20T01:40:00Z");
    const name = messageFileName("task_assignment", date);
    const text = buildMessage({ from: "leader", to: ["ignitian_1"], type: "task_assignment", body: 'task_id: "late_letter"\n', date, messageId: "<late-letter@ignite.local>" });
    fs.writeFileSync(path.join(ws, rel("ignitian_1", "processed", name)), text + tail);
    fs.utimesSync(path.join(ws, rel("ignitian_1", "processed", name)), date, date);
    await scanSource(source, writer, { reportProgress: false });
    fs.unlinkSync(path.join(ws, rel("ignitian_1", "processed", name)));
    await scanSource(source, writer, { reportProgress: false });
    const key = db.prepare("SELECT key FROM messages WHERE message_id = '<late-letter@ignite.local>'").pluck().get() as string;
    const goneAt = db.prepare("SELECT updated_ms FROM messages WHERE key = ?").pluck().get(key) as number;

    // The dead letter was written before the deletion was seen, and is read only now.
    const letter = rel("dead_letter", `task_assignment_${name.slice(16, -5)}_dlq_1795140000.mime`);
    fs.writeFileSync(path.join(ws, letter), buildDeadLetter(text, name, { retryCount: 3, maxRetries: 3, lastError: "timeout", movedAt: new Date(date.getTime() + 300_000) }));
    await scanSource(source, writer, { reportProgress: false });
    expect(db.prepare("SELECT status, updated_ms >= ? AS later FROM messages WHERE key = ?").get(goneAt, key)).toEqual({ status: "dead", later: 1 });
    expect(queryHistory(db, key).map((e) => e.kind)).toEqual(["seen", "dead-lettered", "gone", "status"]);
    expect(endState(key)).toMatch(/in dead_letter\/ so far$/);
  });
});

describe("two files with one Message-ID", () => {
  const date = new Date("2026-11-20T02:00:00Z");
  const name = messageFileName("task_assignment", date);
  const copy = (to: string) =>
    buildMessage({ from: "leader", to: [to], type: "task_assignment", body: `task_id: "for_${to}"\n`, date, messageId: "<shared@ignite.local>" });
  const keyAt = (p: string) => db.prepare("SELECT key FROM messages WHERE path = ?").pluck().get(p) as string;
  async function twoCopies() {
    fs.writeFileSync(path.join(ws, rel("strategist", name)), copy("strategist"));
    fs.writeFileSync(path.join(ws, rel("architect", name)), copy("architect"));
    await scanSource(source, writer, { reportProgress: false });
    return { strategist: keyAt(rel("strategist", name)), architect: keyAt(rel("architect", name)) };
  }

  it("a move continues the copy that moved, not a deleted copy, whose content stays its own", async () => {
    const { strategist: deleted, architect: moving } = await twoCopies();

    fs.unlinkSync(path.join(ws, rel("strategist", name)));
    await scanSource(source, writer, { reportProgress: false });
    fs.renameSync(path.join(ws, rel("architect", name)), path.join(ws, rel("architect", "processed", name)));
    await scanSource(source, writer, { reportProgress: false });

    expect(keyAt(rel("architect", "processed", name))).toBe(moving);
    expect(db.prepare("SELECT agent, status, path, body FROM messages WHERE key = ?").get(deleted)).toEqual({
      agent: "strategist", status: "completed", path: null, body: 'task_id: "for_strategist"\n',
    });
  });

  it("a requeue of one copy and a move of the other in one scan each continue their own message", async () => {
    const keys = await twoCopies();
    const letter = rel("dead_letter", `task_assignment_${name.slice(16, -5)}_dlq_1795140000.mime`);
    const movedAt = new Date(date.getTime() + 60_000);
    fs.writeFileSync(path.join(ws, letter), buildDeadLetter(copy("architect"), name, { retryCount: 3, maxRetries: 3, lastError: "timeout", movedAt }));
    fs.unlinkSync(path.join(ws, rel("architect", name)));
    await scanSource(source, writer, { reportProgress: false });

    const archived = archivePathOf(letter) ?? "";
    fs.mkdirSync(path.dirname(path.join(ws, archived)), { recursive: true });
    fs.renameSync(path.join(ws, letter), path.join(ws, archived));
    fs.writeFileSync(path.join(ws, rel("architect", name)), copy("architect"));
    fs.renameSync(path.join(ws, rel("strategist", name)), path.join(ws, rel("strategist", "processed", name)));
    await scanSource(source, writer, { reportProgress: false });

    expect(keyAt(rel("architect", name))).toBe(keys.architect);
    expect(keyAt(rel("strategist", "processed", name))).toBe(keys.strategist);
    expect(db.prepare("SELECT dead_letter_of FROM messages WHERE path = ?").pluck().get(archived)).toBe(keys.architect);
  });

  it("a live copy moved by hand into a queue whose own copy is gone continues the copy that moved", async () => {
    const keys = await twoCopies();
    fs.unlinkSync(path.join(ws, rel("strategist", name)));
    await scanSource(source, writer, { reportProgress: false });
    fs.renameSync(path.join(ws, rel("architect", name)), path.join(ws, rel("strategist", name)));
    await scanSource(source, writer, { reportProgress: false });

    expect(keyAt(rel("strategist", name))).toBe(keys.architect);
    expect(db.prepare("SELECT status, path, body FROM messages WHERE key = ?").get(keys.strategist)).toEqual({
      status: "completed", path: null, body: 'task_id: "for_strategist"\n',
    });
  });

  it("a dead letter holds the copy in the queue it names, and its requeue to another queue continues that message", async () => {
    const keys = await twoCopies();
    fs.unlinkSync(path.join(ws, rel("strategist", name)));
    await scanSource(source, writer, { reportProgress: false });
    // Architect's copy fails: its letter names architect, though strategist's copy changed last.
    const letter = rel("dead_letter", `task_assignment_${name.slice(16, -5)}_dlq_1795140000.mime`);
    const movedAt = new Date(date.getTime() + 60_000);
    fs.writeFileSync(path.join(ws, letter), buildDeadLetter(copy("architect"), name, { retryCount: 3, maxRetries: 3, lastError: "timeout", movedAt }));
    fs.unlinkSync(path.join(ws, rel("architect", name)));
    await scanSource(source, writer, { reportProgress: false });
    expect(db.prepare("SELECT dead_letter_of FROM messages WHERE path = ?").pluck().get(letter)).toBe(keys.architect);

    // Requeued to strategist's queue, where strategist's own copy is gone.
    const archived = archivePathOf(letter) ?? "";
    fs.mkdirSync(path.dirname(path.join(ws, archived)), { recursive: true });
    fs.renameSync(path.join(ws, letter), path.join(ws, archived));
    fs.writeFileSync(path.join(ws, rel("strategist", name)), copy("architect"));
    await scanSource(source, writer, { reportProgress: false });
    expect(keyAt(rel("strategist", name))).toBe(keys.architect);
    expect(db.prepare("SELECT status, body FROM messages WHERE key = ?").get(keys.strategist)).toEqual({ status: "completed", body: 'task_id: "for_strategist"\n' });
  });
});
