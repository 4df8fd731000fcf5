// A first start's head start: the server serves once the first scan has listed the tree, or at once
// over a journal that knows its sources; never later than its cap.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openJournal } from "@/lib/journal/store";
import { loadConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { queryStats } from "@/lib/journal/stats";
import { HEAD_START_MAX_MS, HeadStart, waitsForListing } from "./head-start";
import { IngestService } from "./service";
import { data, freshJournal, journal, setUpIngestFixture, ws } from "./ingest-fixture";

setUpIngestFixture();

describe("HeadStart", () => {
  afterEach(() => vi.useRealTimers());

  it("ends when told, and a later telling changes nothing", async () => {
    const head = new HeadStart();
    const waited = head.wait();
    head.done();
    head.done();
    await expect(waited).resolves.toBeUndefined();
    await expect(head.wait()).resolves.toBeUndefined();
  });

  it("ends at its cap when the listing never says it is done", async () => {
    vi.useFakeTimers();
    let ended = false;
    void new HeadStart().wait().then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(HEAD_START_MAX_MS - 1);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
  });
});

describe("a start's head start", () => {
  it("is waited for over an empty journal only: not one that knows a source, nor one that cannot be read", () => {
    const { fresh } = freshJournal();
    expect(waitsForListing(fresh.db)).toBe(true);
    expect(waitsForListing(journal.db)).toBe(false);
    fresh.db.close();
    expect(waitsForListing(fresh.db)).toBe(false);
  });

  it("on an empty journal, ends once the tree is listed: its sources known, nothing read yet", async () => {
    const { config, fresh } = freshJournal();
    const first = new IngestService(config, fresh);
    try {
      const scanned = first.start();
      await first.headStarted();
      expect(first.readableSources().map((s) => s.protocol)).toEqual(["ignite"]);
      expect(queryStats(fresh.db).totals.messages).toBe(0);
      await scanned;
      expect(queryStats(fresh.db).totals.messages).toBeGreaterThan(0);
    } finally {
      first.stop();
    }
  });

  it("over a journal that knows its sources, ends before the scan has even found them", async () => {
    const restarted = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" }), journal);
    try {
      const scanned = restarted.start();
      await restarted.headStarted();
      expect(restarted.readableSources()).toEqual([]);
      await scanned;
      expect(restarted.readableSources()).not.toEqual([]);
    } finally {
      restarted.stop();
    }
  });

  it("on a tree of many-entry files alone, ends once its sources are found: their first pass comes after", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-head-start-"));
    const config = loadConfig({ MAILROOM_ROOT: copyFixture("kicklang", path.join(dir, "ws")), MAILROOM_DATA: path.join(dir, "data"), MAILROOM_RESCAN_MS: "60000" });
    const fresh = openJournal(config.journalFile);
    const first = new IngestService(config, fresh);
    try {
      const scanned = first.start();
      await first.headStarted();
      expect(queryStats(fresh.db).totals.messages).toBe(0);
      await scanned;
      expect(queryStats(fresh.db).totals.messages).toBeGreaterThan(0);
    } finally {
      first.stop();
      fresh.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
