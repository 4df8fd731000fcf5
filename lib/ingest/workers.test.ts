import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDb } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";
import { openIgnite } from "@/lib/protocols/ignite";
import { copyFixture } from "@/lib/testing/fixtures";
import { IngestWorkers } from "./workers";
import { prepareFile, type ReadableSource } from "./sync";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function fixtureSource(): Promise<ReadableSource> {
  const root = copyFixture("ignite");
  dirs.push(root);
  const reader = await openIgnite(root);
  if (!reader) throw new Error("fixture is not an IGNITE workspace");
  return { id: "s", protocol: "ignite", root, reader, error: null };
}

function emptyJournal() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-workers-data-"));
  dirs.push(dir);
  const db = openDb(path.join(dir, "journal.sqlite"));
  const writer = new JournalWriter(db);
  writer.upsertSource({ id: "s", protocol: "ignite", root: "/", error: null });
  return { db, writer };
}

describe("IngestWorkers", () => {
  it("loads messages into the journal on worker threads and hands the dead letters back, as the main thread reads them", async () => {
    const source = await fixtureSource();
    const files = await source.reader.list({ stat: false });
    const { db, writer } = emptyJournal();
    const bulk = writer.beginBulkLoad();
    const workers = IngestWorkers.open();
    expect(workers).not.toBeNull();
    try {
      const chunk = await workers?.load(source, files, bulk!.target());
      const here = [];
      for (const f of files) here.push(await prepareFile(source, f));
      const deadLetters = here.filter((p) => p?.record.parsed.deadLetter);
      expect(chunk?.deadLetters).toEqual(deadLetters);
      expect(chunk?.deadLetters[0]?.record.raw).toBeInstanceOf(Buffer);
      expect(chunk?.loaded).toBe(here.length - deadLetters.length - here.filter((p) => p === null).length);
      expect(db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(chunk?.loaded);
      // Progress counts every file handed out, read or not.
      expect(db.prepare("SELECT files FROM sources WHERE id = 's'").pluck().get()).toBe(files.length);
    } finally {
      await workers?.close();
      bulk?.finish("s");
      db.close();
    }
  });

  /** The fixture compared on one worker with an empty journal, `onDir` hearing each folder before it is read. */
  async function diffHearing(onDir: (dir: string, root: string) => void, dirAckWaitMs?: number) {
    const source = await fixtureSource();
    const { db } = emptyJournal();
    db.close();
    const workers = IngestWorkers.open(1);
    try {
      return { root: source.root, diff: await workers?.diff(source, db.name, (dir) => onDir(dir, source.root), dirAckWaitMs) };
    } finally {
      await workers?.close();
    }
  }

  it("tells each folder of a rescan's comparison as it lists it, before its answer", async () => {
    const told: string[] = [];
    const { diff } = await diffHearing((dir) => told.push(dir));
    expect(told.length).toBeGreaterThan(0);
    expect(told).toEqual(diff?.dirs);
  });

  it("lists a folder only once its caller has heard of it: a file written then is in the comparison", async () => {
    const written: string[] = [];
    const { diff } = await diffHearing((dir, root) => {
      // What a watch set here would not see: it must be in the listing instead.
      if (path.basename(dir) !== "processed") return;
      const file = path.join(dir, `task_written_before_read_${written.length}.mime`);
      fs.writeFileSync(file, "From: a\n\nbody\n");
      written.push(path.relative(root, file));
    });
    expect(written.length).toBeGreaterThan(0);
    expect(diff?.changed.map((f) => f.relPath)).toEqual(expect.arrayContaining(written));
  });

  it("counts a folder off even when its callback throws, so the worker never waits on it", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // With a 60 s wait per folder, a folder not counted off would outlast the test.
    const { diff } = await diffHearing(() => {
      throw new Error("no watch here");
    }, 60_000);
    expect(diff?.dirAcksLapsed).toBe(false);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("could not take note of the folder"), expect.any(Error));
  });

  it("lists on without waiting once the server is too slow to hear of a folder, and says so", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let heard = 0;
    const { diff } = await diffHearing(() => {
      if (heard++ > 0) return;
      const until = Date.now() + 300;
      while (Date.now() < until); // the server busy well past the worker's 20 ms wait, once
    }, 20);
    expect(diff?.dirAcksLapsed).toBe(true);
    expect(diff?.dirs.length).toBe(heard); // every folder still heard of, only not waited for
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toContain("the server was too busy to watch each folder");
  });

  it("runs this thread's writes in the load's write turn, waiting for it while the event loop goes on", async () => {
    const workers = IngestWorkers.open(1);
    if (!workers) throw new Error("no worker threads");
    try {
      // The lock the workers' chunks take (worker.ts holdingWriteLock), held as one of them would.
      const cell = new Int32Array((workers as unknown as { writeLock: SharedArrayBuffer }).writeLock);
      Atomics.store(cell, 0, 1);
      const seen: string[] = [];
      const turn = workers.inWriteTurn(() => seen.push(`wrote, lock ${Atomics.load(cell, 0)}`));
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push("a request answered");
      Atomics.store(cell, 0, 0);
      Atomics.notify(cell, 0, 1);
      await turn;
      expect(seen).toEqual(["a request answered", "wrote, lock 1"]);
      expect(Atomics.load(cell, 0)).toBe(0);
    } finally {
      await workers.close();
    }
  });

  it("rejects with a reason when a worker cannot read the source", async () => {
    const source = await fixtureSource();
    const gone = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-not-a-workspace-"));
    dirs.push(gone);
    const { db, writer } = emptyJournal();
    const workers = IngestWorkers.open();
    try {
      await expect(workers?.load({ ...source, root: gone }, [], writer.beginBulkLoad()!.target())).rejects.toThrow(`no ignite workspace at ${gone} any more`);
    } finally {
      await workers?.close();
      db.close();
    }
  });

  // On Linux each thread has its own nice value, in /proc/self/task/<tid>/stat (field 19).
  const niceOfThreads = () =>
    fs.readdirSync("/proc/self/task").map((tid) => {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) };
    });

  it.runIf(process.platform === "linux")("runs its threads at a lower priority than the server's, which keeps its own", async () => {
    const source = await fixtureSource();
    const { db } = emptyJournal();
    const before = new Set(niceOfThreads().map((t) => t.tid));
    const workers = IngestWorkers.open(2);
    try {
      // A job each, so both have started.
      await Promise.all([workers?.diff(source, db.name), workers?.diff(source, db.name)]);
      const started = niceOfThreads().filter((t) => !before.has(t.tid) && t.nice !== 0);
      expect(started.map((t) => t.nice)).toEqual([10, 10]);
      expect(os.getPriority()).toBe(0);
    } finally {
      await workers?.close();
      db.close();
    }
  });

  it.runIf(process.platform === "linux")("lists a first scan's tree at the server's priority, and lowers it from the next job on", async () => {
    const source = await fixtureSource();
    const before = new Set(niceOfThreads().map((t) => t.tid));
    const started = () => niceOfThreads().filter((t) => !before.has(t.tid)).map((t) => t.nice);
    const workers = IngestWorkers.open(1);
    try {
      // Asked while the worker waits to read each folder.
      const during: number[][] = [];
      await workers?.list(source, { part: 0, of: 1 }, () => during.push(started())).listing;
      expect(during.length).toBeGreaterThan(0);
      for (const nices of during) expect(nices).not.toContain(10);
      await workers?.order(new Float64Array([1, 2, 3]));
      expect(started()).toContain(10);
    } finally {
      await workers?.close();
    }
  });
});
