import fs from "node:fs";
import fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ignite } from "@/lib/protocols/fixtures";
import { ACTOR, STUCK_RETRIED, DL_ARCH, QUEUED, STUCK, failureOf, openHarness, type Harness } from "./test-harness";
import { discardMessage, restoreMessage, retryMessage } from "./index";

const { getHeader } = ignite;

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const ARCHIVED_QUEUED = ".ignite/archive/mailroom/queue/leader/progress_update_1795136392801166.mime";

describe("retry now", () => {
  it("does what the queue monitor's retry does, under the same key", async () => {
    const key = h.keyAt(STUCK);
    const before = Date.now();
    const result = await retryMessage(key, { path: STUCK, actor: ACTOR });
    expect(result).toEqual({ key, path: STUCK_RETRIED });
    expect(h.exists(STUCK)).toBe(false);

    const text = h.read(STUCK_RETRIED);
    expect(getHeader(text, "X-IGNITE-Status")).toBe("retrying");
    expect(getHeader(text, "X-IGNITE-Retry-Count")).toBe("1");
    const last = Date.parse(getHeader(text, "X-IGNITE-Last-Retry-At") ?? "");
    const next = Date.parse(getHeader(text, "X-IGNITE-Next-Retry-After") ?? "");
    expect(last).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    // Full jitter for a first retry: 0–5 s.
    expect(next - last).toBeGreaterThanOrEqual(0);
    expect(next - last).toBeLessThanOrEqual(5000);
    // Processed-At stays (the monitor keeps it); the file's lines are otherwise unchanged.
    expect(getHeader(text, "X-IGNITE-Processed-At")).not.toBeNull();

    expect(h.summary(key)).toMatchObject({ status: "retrying", retryCount: 1, stuck: false, path: STUCK_RETRIED, nextRetryAt: expect.any(String) });
    expect(h.history(key)).toEqual(expect.arrayContaining(["retried", "retry by operator"]));
  });

  it("keeps the key when a file event comes between the move's two halves (a busy machine's watcher)", async () => {
    const key = h.keyAt(STUCK);
    const unlink = fsp.unlink.bind(fsp);
    let event: Promise<void> = Promise.resolve();
    // The new file is written, the old one not yet removed: the watcher reports the new one now.
    // It must wait for the move to end (a cap, not a wait: it cannot run before then).
    const spy = vi.spyOn(fsp, "unlink").mockImplementationOnce(async (p) => {
      event = h.service.syncPaths([h.abs(STUCK_RETRIED)]);
      await Promise.race([event, new Promise((resolve) => setTimeout(resolve, 2000))]);
      return unlink(p);
    });
    try {
      expect(await retryMessage(key, { path: STUCK, actor: ACTOR })).toEqual({ key, path: STUCK_RETRIED });
      await event;
    } finally {
      spy.mockRestore();
    }
    expect(h.q("is:duplicate")).toEqual([]);
    expect(h.summary(key)).toMatchObject({ status: "retrying", path: STUCK_RETRIED });
  });

  it("is a 409 for a dead letter or a queued message, and changes nothing", async () => {
    const before = h.tree();
    for (const rel of [DL_ARCH, QUEUED]) {
      expect(await failureOf(retryMessage(h.keyAt(rel), { actor: ACTOR }))).toMatchObject({ status: 409, code: "not_applicable" });
    }
    expect(h.tree()).toEqual(before);
  });
});

describe("discard and restore", () => {
  it("moves the file to the archive and back, keeping the key and the bytes", async () => {
    const key = h.keyAt(QUEUED);
    const bytes = fs.readFileSync(h.abs(QUEUED));

    expect(await discardMessage(key, { path: QUEUED, actor: ACTOR })).toEqual({ key, path: ARCHIVED_QUEUED });
    expect(h.exists(QUEUED)).toBe(false);
    expect(fs.readFileSync(h.abs(ARCHIVED_QUEUED)).equals(bytes)).toBe(true);
    expect(h.summary(key)).toMatchObject({ status: "discarded", folder: "archive" });

    expect(await restoreMessage(key, { path: ARCHIVED_QUEUED, actor: ACTOR })).toEqual({ key, path: QUEUED });
    expect(fs.readFileSync(h.abs(QUEUED)).equals(bytes)).toBe(true);
    expect(h.summary(key)).toMatchObject({ status: "queued", folder: "queue", path: QUEUED });
    expect(h.history(key)).toEqual(expect.arrayContaining(["discarded", "discard by operator", "restored", "restore by operator"]));
  });

  it("discards a dead letter; it leaves the dead-letter list and comes back on restore", async () => {
    const key = h.keyAt(DL_ARCH);
    const { path } = await discardMessage(key, { actor: ACTOR });
    expect(path).toBe(".ignite/archive/mailroom/queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime");
    await restoreMessage(key, { actor: ACTOR });
    expect(h.summary(key)).toMatchObject({ status: "dead", folder: "dead_letter", path: DL_ARCH });
  });

  it("discarding a dead letter discards the message it holds, as a fresh journal reads the archive; restoring makes it dead again", async () => {
    const key = h.keyAt(DL_ARCH);
    const original = h.summary(key)?.deadLetterOf ?? "";
    expect(h.summary(original)).toMatchObject({ status: "dead", path: null });
    await discardMessage(key, { actor: ACTOR });
    expect(h.summary(original)).toMatchObject({ status: "discarded", path: null });
    expect(h.q("status:dead").map((m) => m.key)).not.toContain(original);
    await restoreMessage(key, { actor: ACTOR });
    expect(h.summary(original)).toMatchObject({ status: "dead", path: null });
    expect(h.history(original).filter((kind) => kind === "status")).toHaveLength(2);
  });

  it("restore is a 409 when the original place is taken, and changes nothing", async () => {
    const key = h.keyAt(QUEUED);
    await discardMessage(key, { actor: ACTOR });
    fs.writeFileSync(h.abs(QUEUED), "someone else's file");
    const before = h.tree();
    const err = await failureOf(restoreMessage(key, { actor: ACTOR }));
    expect(err).toMatchObject({ status: 409, code: "target_exists" });
    expect(err.message).toContain(QUEUED);
    expect(h.tree()).toEqual(before);
    expect(h.read(QUEUED)).toBe("someone else's file");
  });

  it("a second discard from the same page is a 409 saying where the message went", async () => {
    const key = h.keyAt(QUEUED);
    await discardMessage(key, { path: QUEUED, actor: ACTOR });
    const err = await failureOf(discardMessage(key, { path: QUEUED, actor: ACTOR }));
    expect(err).toMatchObject({ status: 409, code: "moved" });
    expect(err.message).toContain(ARCHIVED_QUEUED);
  });

  it("restore is a 409 for a message that is not in the archive", async () => {
    expect(await failureOf(restoreMessage(h.keyAt(QUEUED), { actor: ACTOR }))).toMatchObject({ status: 409, code: "not_applicable" });
  });
});
