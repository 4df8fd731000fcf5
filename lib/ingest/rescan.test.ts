import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/lib/server/config";
import { nextRescanDelay } from "./tree-scans";
import { IngestService } from "./service";
import { PRUNE_BATCH } from "@/lib/journal/upkeep";
import { IngestWorkers } from "./workers";
import { changeWhileStopped, data, journal, q, service, setUpIngestFixture, until, ws } from "./ingest-fixture";

setUpIngestFixture();

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
