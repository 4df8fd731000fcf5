import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openJournal, closeJournals, type Journal } from "@/lib/journal/store";
import { fullTextReady } from "@/lib/journal/fulltext";
import { queryHistory, queryPage, querySummary } from "@/lib/journal/queries";
import { queryStats } from "@/lib/journal/stats";
import { parseQuery } from "@/lib/query";
import { loadConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { UnfinishedLoadError } from "./scan";
import { IngestService, nextRescanDelay } from "./service";
import { PRUNE_BATCH } from "@/lib/journal/writer";
import { IngestWorkers } from "./workers";

let ws: string;
let data: string;
let journal: Journal;
let service: IngestService;

const q = (query: string) => queryPage(journal.db, parseQuery(query), 500, null).items;
const queue = (...parts: string[]) => path.join(ws, ".ignite", "queue", ...parts);

async function until<T>(probe: () => T | null | undefined | false, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function mime(id: string, to: string, extra = ""): string {
  return `MIME-Version: 1.0\nMessage-ID: <${id}@ignite.local>\nFrom: leader\nTo: ${to}\nDate: Fri, 20 Nov 2026 10:00:00 +0900\nX-IGNITE-Type: task_assignment\nX-IGNITE-Priority: high\n${extra}Content-Type: text/x-yaml; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\ntask_id: "t_${id}"\n`;
}

beforeEach(async () => {
  ws = copyFixture("ignite");
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-data-"));
  const config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" });
  journal = openJournal(config.journalFile);
  service = new IngestService(config, journal);
  await service.start();
});
const freshDirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  service.stop();
  closeJournals();
  for (const dir of [ws, data, ...freshDirs.splice(0)]) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * An empty journal of its own over the same tree, for a first scan. The fixture's service stops
 * first: one process shares one inotify watch per folder, so its watches would hear the writes too.
 */
function freshJournal(settings: Record<string, string> = {}) {
  service.stop();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-data-"));
  freshDirs.push(dir);
  const config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: dir, MAILROOM_RESCAN_MS: "60000", ...settings });
  const fresh = openJournal(config.journalFile);
  return { config, fresh, pageOf: (query: string) => queryPage(fresh.db, parseQuery(query), 500, null).items };
}

describe("first scan of the fixture", () => {
  it("journals every message file, malformed ones included", () => {
    const all = q("");
    // 19 files, plus the two dead letters' originals known only from inside them.
    expect(all).toHaveLength(21);
    expect(q("status:invalid").map((m) => m.path)).toEqual(
      expect.arrayContaining([".ignite/queue/architect/broken_1795300000000001.mime", ".ignite/queue/architect/processed/empty_1795300000000002.mime"]),
    );
  });

  it("reads each lifecycle state", () => {
    expect(q("agent:ignitian_3")[0]).toMatchObject({ status: "retrying", retryCount: 1 });
    expect(q("agent:evaluator")[0]).toMatchObject({ status: "processing", stuck: true });
    expect(q("is:stuck")).toHaveLength(1);
    expect(q("folder:queue status:queued").map((m) => m.type).sort()).toEqual(["escalation", "evaluation_result", "improvement_request", "progress_update"]);
  });

  it("links each dead letter to its original, which is dead", () => {
    const letters = q("folder:dead_letter");
    expect(letters).toHaveLength(2);
    for (const letter of letters) {
      const original = querySummary(journal.db, letter.deadLetterOf ?? "");
      expect(original).toMatchObject({ status: "dead", path: null });
    }
    expect(q("agent:ignitian_2 status:dead")[0]).toMatchObject({ type: "task_assignment", threadId: "thr_readme_42" });
  });

  it("lists every agent, empty queues too, with per-status counts", () => {
    const stats = queryStats(journal.db);
    const byAgent = Object.fromEntries(stats.agents.map((a) => [a.agent, a]));
    expect(Object.keys(byAgent).sort()).toEqual(
      ["architect", "coordinator", "evaluator", "ignitian_1", "ignitian_2", "ignitian_3", "innovator", "leader", "strategist"],
    );
    expect(byAgent.leader).toMatchObject({ queued: 3, delivered: 4 });
    expect(byAgent.evaluator).toMatchObject({ processing: 1, stuck: 1 });
    expect(byAgent.ignitian_2).toMatchObject({ dead: 1 });
  });
});

describe("watching the tree", () => {
  it("journals a new file, keeps its key through processed/ and a rewrite, and completes it when deleted", async () => {
    fs.writeFileSync(queue("ignitian_1", "task_assignment_1.mime"), mime("n1", "ignitian_1"));
    const created = await until(() => q("mid:n1@ignite.local")[0]);
    expect(created).toMatchObject({ status: "queued", folder: "queue" });

    fs.renameSync(queue("ignitian_1", "task_assignment_1.mime"), queue("ignitian_1", "processed", "task_assignment_1.mime"));
    await until(() => querySummary(journal.db, created.key)?.folder === "processed");

    const processed = queue("ignitian_1", "processed", "task_assignment_1.mime");
    fs.writeFileSync(processed, mime("n1", "ignitian_1", "X-IGNITE-Status: delivered\n"));
    await until(() => querySummary(journal.db, created.key)?.status === "delivered");

    fs.unlinkSync(processed);
    const done = await until(() => (querySummary(journal.db, created.key)?.status === "completed" ? querySummary(journal.db, created.key) : null));
    expect(done).toMatchObject({ path: null, preview: 'task_id: "t_n1"' });
    expect(queryHistory(journal.db, created.key).map((e) => e.kind)).toEqual(["seen", "moved", "status", "gone"]);
  });

  it("follows the monitor's rename of a 10-digit escalation without a new key", async () => {
    const before = q("agent:leader type:escalation folder:queue")[0];
    expect(before).toBeDefined();
    fs.renameSync(queue("leader", "escalation_1795136385.mime"), queue("leader", "escalation_1795136385000000.mime"));
    const after = await until(() => q("path:escalation_1795136385000000")[0]);
    expect(after.key).toBe(before?.key);
  });

  it("watches a new agent's folders as they appear, reading only those folders", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_9"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_9")));
      fs.mkdirSync(queue("ignitian_9", "processed"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_9", "processed")));
      fs.writeFileSync(queue("ignitian_9", "processed", "task_assignment_9.mime"), mime("n9", "ignitian_9"));
      expect(await until(() => q("mid:n9@ignite.local")[0])).toMatchObject({ agent: "ignitian_9", folder: "processed" });
      // Not the whole tree again: the other agents' folders are watched already.
      expect(readdir.mock.calls.map(([d]) => String(d)).filter((d) => !d.startsWith(queue("ignitian_9")))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  it("watches a folder made again under the name of one renamed away, and no deeper than a scan watches", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_8"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_8")));
      // Its watch follows it to the new name; the old name must not count as watched any more.
      fs.renameSync(queue("ignitian_8"), queue("ignitian_88"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_88")));
      readdir.mockClear();
      fs.mkdirSync(queue("ignitian_8", "a", "b", "c", "d", "e"), { recursive: true });
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_8")));
      fs.writeFileSync(queue("ignitian_8", "task_assignment_80.mime"), mime("n80", "ignitian_8"));
      expect(await until(() => q("mid:n80@ignite.local")[0])).toMatchObject({ agent: "ignitian_8" });
      // queue/ignitian_8/a/b/c is 4 levels below queue/, as deep as new folders are watched (a
      // scan watches only the levels that can hold messages, 2 below queue/).
      expect(readdir.mock.calls.some(([d]) => String(d).startsWith(queue("ignitian_8", "a", "b", "c", "d")))).toBe(false);
    } finally {
      readdir.mockRestore();
    }
  });

  it("journals the files a folder brings when it is moved in whole", async () => {
    const made = fs.mkdtempSync(path.join(path.dirname(ws), "mailroom-agent-"));
    fs.mkdirSync(path.join(made, "processed"));
    fs.writeFileSync(path.join(made, "task_assignment_7.mime"), mime("n7", "ignitian_7"));
    fs.writeFileSync(path.join(made, "processed", "task_assignment_70.mime"), mime("n70", "ignitian_7"));
    // A folder where a message file should be: listed as an invalid message, as a scan lists it.
    fs.mkdirSync(path.join(made, "processed", "task_assignment_71.mime"));
    fs.renameSync(made, queue("ignitian_7"));
    expect(await until(() => q("mid:n7@ignite.local")[0])).toMatchObject({ agent: "ignitian_7", folder: "queue" });
    expect(await until(() => q("mid:n70@ignite.local")[0])).toMatchObject({ agent: "ignitian_7", folder: "processed" });
    const folderAsMessage = ".ignite/queue/ignitian_7/processed/task_assignment_71.mime";
    expect(await until(() => q(`path:${folderAsMessage}`)[0])).toMatchObject({ status: "invalid", problems: ["A directory is where a message file should be."] });
  });

  it("re-reads nothing for an event about a folder it watches already, and watches a folder made again at once", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_6"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_6")));
      readdir.mockClear();
      fs.chmodSync(queue("leader", "processed"), 0o750); // an event for processed/ itself, in leader/
      fs.rmSync(queue("ignitian_6"), { recursive: true });
      fs.mkdirSync(queue("ignitian_6")); // within one batch of events: the same name, another folder
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_6")));
      fs.writeFileSync(queue("ignitian_6", "task_assignment_6.mime"), mime("n6", "ignitian_6"));
      expect(await until(() => q("mid:n6@ignite.local")[0])).toMatchObject({ agent: "ignitian_6" });
      expect(readdir.mock.calls.filter(([d]) => d === queue("leader", "processed"))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  it("journals a file that exists for one second", async () => {
    const file = queue("leader", "notify_1.mime");
    fs.writeFileSync(file, mime("brief", "leader"));
    await new Promise((r) => setTimeout(r, 1000));
    fs.unlinkSync(file);
    const m = await until(() => q("mid:brief@ignite.local")[0]);
    await until(() => querySummary(journal.db, m.key)?.status === "completed");
  });

  it("gives a requeued dead letter's message its original key back", async () => {
    const original = q("agent:ignitian_2 status:dead")[0];
    const text = fs.readFileSync(queue("dead_letter", "task_assignment_1795135151004518_dlq_1795136385.mime"), "utf8");
    const embedded = text.split("original_message: |\n")[1]?.replace(/^ {2}/gm, "") ?? "";
    fs.writeFileSync(queue("ignitian_2", "task_assignment_1795135151004518.mime"), embedded);
    const back = await until(() => q("agent:ignitian_2 folder:queue")[0]);
    expect(back.key).toBe(original?.key);
    expect(queryHistory(journal.db, back.key).at(-1)?.kind).toBe("requeued");
  });

  it("converges on a periodic rescan when events are missed", async () => {
    service.stop();
    fs.unlinkSync(queue("innovator", "improvement_request_1795136391230419.mime"));
    // A second service over the same journal stands in for the next rescan after missed events.
    const rescanner = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data }), journal);
    await rescanner.scanNow();
    rescanner.stop();
    expect(q("agent:innovator")[0]).toMatchObject({ status: "completed", path: null });
  });
});

/** Stop watching, then change the tree as agents would meanwhile: a file deleted, one added (Message-ID `<id@ignite.local>`), one moved. */
function changeWhileStopped(id: string) {
  service.stop();
  const before = q("agent:innovator")[0];
  fs.unlinkSync(queue("innovator", "improvement_request_1795136391230419.mime"));
  fs.writeFileSync(queue("coordinator", "task_assignment_1795400000000001.mime"), mime(id, "coordinator"));
  const assignment = q("agent:ignitian_3")[0];
  const moved = assignment?.path?.replace("/ignitian_3/", "/ignitian_3/processed/") ?? "";
  fs.renameSync(path.join(ws, assignment?.path ?? ""), path.join(ws, moved));
  return { before, assignment, moved };
}

describe("periodic rescans", () => {
  it("on a big tree compare on a worker thread and bring in what events missed: new, moved and deleted files", async () => {
    const { before, assignment, moved } = changeWhileStopped("missed");
    // Any tree counts as big here, so this rescan takes the worker's path.
    const rescanner = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data }), journal, 0);
    const errors = vi.spyOn(console, "error");
    const diff = vi.spyOn(IngestWorkers.prototype, "diff");
    try {
      await rescanner.periodicRescan();
      expect(errors).not.toHaveBeenCalled(); // no fallback to the main thread
      // Its folders are not watched as listed: events run meanwhile, and a new folder watched just
      // after the worker read it would keep its own event from reading what came in between.
      expect(diff.mock.calls[0]?.[2]).toBeUndefined();
      expect(q("mid:<missed@ignite.local>")).toHaveLength(1);
      expect(q(`mid:${assignment?.messageId}`)).toMatchObject([{ key: assignment?.key, path: moved }]);
      // A missing file waits out the grace a move gets, then counts as deleted.
      await until(() => q("agent:innovator")[0]?.status === "completed");
      expect(q("agent:innovator")[0]).toMatchObject({ key: before?.key, path: null });
      expect(q("").length).toBe(22);
    } finally {
      errors.mockRestore();
      diff.mockRestore();
      rescanner.stop();
    }
  });


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

  it("apply retention after a rescan: deleted files become completed, and only the newest are kept", async () => {
    service.stop();
    const delivered = q("status:delivered").slice(0, 3);
    expect(delivered).toHaveLength(3);
    for (const m of delivered) fs.unlinkSync(path.join(ws, m.path ?? ""));
    const retaining = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RETAIN_COUNT: "1" }), journal);
    const logs = vi.spyOn(console, "log");
    try {
      await retaining.scanNow();
      expect(q("status:completed")).toHaveLength(1);
      expect(logs).toHaveBeenCalledWith("[mailroom] retention: pruned 2 completed messages");
    } finally {
      logs.mockRestore();
      retaining.stop();
    }
  });

  it("prune a long history a batch per turn until a batch comes back short", async () => {
    const prune = vi.spyOn(journal.writer, "prune").mockReturnValueOnce(PRUNE_BATCH).mockReturnValueOnce(PRUNE_BATCH).mockReturnValueOnce(3);
    const logs = vi.spyOn(console, "log");
    try {
      await service.scanNow();
      await until(() => logs.mock.calls.some(([line]) => line === `[mailroom] retention: pruned ${2 * PRUNE_BATCH + 3} completed messages`));
      expect(prune).toHaveBeenCalledTimes(3);
    } finally {
      prune.mockRestore();
      logs.mockRestore();
    }
  });

  it("wait the setting on a small tree, and 20 times their own duration on a big one", () => {
    expect(nextRescanDelay(10_000, 40)).toBe(10_000);
    expect(nextRescanDelay(10_000, 1_250)).toBe(25_000);
  });
});
