// Starting ingest: a start over a journaled tree, and the first scan of an empty journal (its bulk load
// and full-text index). Each test stops the fixture's service before it starts its own.
import fs from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { fullTextReady } from "@/lib/journal/fulltext";
import { queryStats } from "@/lib/journal/stats";
import { loadConfig } from "@/lib/server/config";
import { UnfinishedLoadError } from "./scan";
import { IngestService } from "./service";
import { IngestWorkers } from "./workers";
import { changeWhileStopped, data, freshJournal, journal, mime, q, queue, service, setUpIngestFixture, until, ws } from "./ingest-fixture";

setUpIngestFixture();

describe("starting ingest", () => {
  it("a start over a big journaled tree compares it on a worker thread and brings in what changed meanwhile", async () => {
    const { before, assignment, moved } = changeWhileStopped("meanwhile");
    const diff = vi.spyOn(IngestWorkers.prototype, "diff");
    const errors = vi.spyOn(console, "error");
    // Any journaled tree counts as big here.
    const restarted = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data }), journal, 0);
    try {
      await restarted.start();
      expect(diff).toHaveBeenCalledTimes(1);
      expect(errors).not.toHaveBeenCalled(); // no fallback to the main thread
      expect(q("mid:<meanwhile@ignite.local>")).toHaveLength(1);
      expect(q(`mid:${assignment?.messageId}`)).toMatchObject([{ key: assignment?.key, path: moved }]);
      expect(q("agent:innovator")[0]).toMatchObject({ key: before?.key, status: "completed", path: null });
      expect(queryStats(journal.db).totals.messages).toBe(22);
      // Its folders are watched, as after a scan here.
      fs.writeFileSync(queue("leader", "processed", "task_assignment_1795400000000003.mime"), mime("watched", "leader"));
      await until(() => q("mid:<watched@ignite.local>")[0]);
    } finally {
      diff.mockRestore();
      errors.mockRestore();
      restarted.stop();
    }
  });

  it("a start over a big journaled tree watches each folder as the worker lists it: a file written meanwhile comes in without a rescan", async () => {
    service.stop(); // its watches of the same folders would hear the write too (one inotify watch per folder)
    const diff = IngestWorkers.prototype.diff;
    const written = queue("leader", "task_assignment_1795400000000008.mime");
    const spy = vi.spyOn(IngestWorkers.prototype, "diff").mockImplementation(async function (this: IngestWorkers, ...args) {
      const compared = await diff.apply(this, args);
      // Listed already, before its folders' changes are journaled.
      fs.writeFileSync(written, mime("during-diff", "leader"));
      return compared;
    });
    // Any journaled tree counts as big here.
    const restarted = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" }), journal, 0);
    try {
      await restarted.start();
      await until(() => q("mid:<during-diff@ignite.local>")[0]);
    } finally {
      spy.mockRestore();
      restarted.stop();
    }
  });

  it("a first scan marks stuck messages as it goes: the sweep runs from the start", async () => {
    const { config, fresh, pageOf } = freshJournal();
    vi.useFakeTimers({ toFake: ["setInterval"] });
    const begin = fresh.writer.beginBulkLoad.bind(fresh.writer);
    const sweep = vi.spyOn(fresh.writer, "refreshStuck");
    let sweptMidScan = false;
    // A second passes while the load is under way.
    vi.spyOn(fresh.writer, "beginBulkLoad").mockImplementation(() => {
      const bulk = begin();
      vi.advanceTimersByTime(1000);
      sweptMidScan = sweep.mock.calls.length > 0;
      return bulk;
    });
    const first = new IngestService(config, fresh);
    try {
      await first.start();
      expect(sweptMidScan).toBe(true);
      expect(pageOf("is:stuck")).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
      first.stop();
    }
  });

  it("a first scan watches the folders it listed before it reads them: a file written meanwhile comes in without a rescan", async () => {
    const { config, fresh, pageOf } = freshJournal();
    const begin = fresh.writer.beginBulkLoad.bind(fresh.writer);
    // Written once the tree is listed, while the load is under way.
    vi.spyOn(fresh.writer, "beginBulkLoad").mockImplementation(() => {
      fs.writeFileSync(queue("leader", "task_assignment_1795400000000004.mime"), mime("mid-scan", "leader"));
      return begin();
    });
    const first = new IngestService(config, fresh);
    try {
      await first.start();
      await until(() => pageOf("mid:<mid-scan@ignite.local>")[0]);
      expect(queryStats(fresh.db).totals.messages).toBe(22);
    } finally {
      vi.restoreAllMocks();
      first.stop();
    }
  });

  it("a first scan that fails stops ingest: its load may have left the journal's indexes set aside", async () => {
    const { config, fresh, pageOf } = freshJournal();
    vi.spyOn(fresh.writer, "beginBulkLoad").mockImplementation(() => {
      // Written while the scan runs: its event is pending when the scan fails.
      fs.writeFileSync(queue("leader", "task_assignment_1795400000000005.mime"), mime("during-scan", "leader"));
      throw new Error("disk full");
    });
    const first = new IngestService(config, fresh);
    try {
      await expect(first.start()).rejects.toThrow("disk full");
      fs.writeFileSync(queue("leader", "task_assignment_1795400000000006.mime"), mime("after-failure", "leader"));
      await first.syncPaths([queue("leader", "task_assignment_1795400000000006.mime")]);
      await new Promise((r) => setTimeout(r, 300));
      expect([...pageOf("mid:<during-scan@ignite.local>"), ...pageOf("mid:<after-failure@ignite.local>")]).toEqual([]);
    } finally {
      vi.restoreAllMocks();
      first.stop();
    }
  });

  it("a bulk load whose indexes cannot be built says so, and stops ingest", async () => {
    const { config, fresh, pageOf } = freshJournal();
    const begin = fresh.writer.beginBulkLoad.bind(fresh.writer);
    vi.spyOn(fresh.writer, "beginBulkLoad").mockImplementation(() => {
      const bulk = begin();
      if (bulk) vi.spyOn(bulk, "finish").mockImplementation(() => {
        throw new Error("database or disk is full");
      });
      return bulk;
    });
    const first = new IngestService(config, fresh);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await expect(first.start()).rejects.toThrow(UnfinishedLoadError);
      await expect(first.start()).resolves.toBeUndefined(); // stopped: nothing runs
      fs.writeFileSync(queue("leader", "task_assignment_1795400000000010.mime"), mime("after-unfinished", "leader"));
      await first.syncPaths([queue("leader", "task_assignment_1795400000000010.mime")]);
      expect(pageOf("mid:<after-unfinished@ignite.local>")).toEqual([]);
      expect(errors).toHaveBeenCalledWith("[mailroom] ingest error:", expect.any(UnfinishedLoadError));
    } finally {
      vi.restoreAllMocks();
      first.stop();
    }
  });

  it("a first scan of an empty journal loads in bulk, however big the tree is taken to be", async () => {
    const { config, fresh } = freshJournal();
    const logs = vi.spyOn(console, "log");
    const first = new IngestService(config, fresh, 0);
    try {
      await first.start();
      expect(logs.mock.calls.some(([line]) => String(line).startsWith("[mailroom] first scan of"))).toBe(true);
      expect(queryStats(fresh.db).totals.messages).toBe(21);
    } finally {
      logs.mockRestore();
      first.stop();
    }
  });

  it("a first scan of a big tree fills the full-text index on a worker thread, and here if the worker fails", async () => {
    const fill = vi.spyOn(IngestWorkers.prototype, "fillFullText");
    const errors = vi.spyOn(console, "error");
    const started: IngestService[] = [];
    const firstScan = async () => {
      const { config, fresh } = freshJournal();
      // Any tree counts as big here.
      const first = new IngestService(config, fresh, 0);
      started.push(first);
      await first.start();
      expect(fullTextReady(fresh.db)).toBe(true);
      // Every body indexed once.
      expect(fresh.db.prepare("SELECT (SELECT count(*) FROM messages_fts_docsize) = (SELECT count(*) FROM messages)").pluck().get()).toBe(1);
    };
    try {
      await firstScan();
      expect(fill).toHaveBeenCalledTimes(1);
      expect(errors).not.toHaveBeenCalled();
      fill.mockRejectedValueOnce(new Error("worker gone"));
      await firstScan();
      expect(errors).toHaveBeenCalledWith(expect.stringContaining("filling the full-text index on a worker thread failed"), expect.any(Error));
    } finally {
      for (const s of started) s.stop();
    }
  });

  it("fills a big tree's full-text index a chunk per ingest turn: a file event waits for the worker's chunk, never writes beside it", async () => {
    const { config, fresh, pageOf } = freshJournal();
    const first = new IngestService(config, fresh, 0);
    const newFile = queue("leader", "task_assignment_1795400000000007.mime");
    const order: string[] = [];
    const fillChunk = IngestWorkers.prototype.fillFullText;
    vi.spyOn(IngestWorkers.prototype, "fillFullText").mockImplementation(async function (this: IngestWorkers, ...args) {
      fs.writeFileSync(newFile, mime("during-fill", "leader"));
      void first.syncPaths([newFile]).then(() => order.push("file journaled"));
      await new Promise((r) => setTimeout(r, 50));
      await fillChunk.apply(this, args);
      order.push("chunk filled");
    });
    const errors = vi.spyOn(console, "error");
    try {
      await first.start();
      await until(() => order.length === 2);
      expect(order).toEqual(["chunk filled", "file journaled"]);
      expect(errors).not.toHaveBeenCalled();
      expect(pageOf("mid:<during-fill@ignite.local>")).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      first.stop();
    }
  });
});
