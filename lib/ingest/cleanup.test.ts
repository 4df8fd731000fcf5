import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryHistory } from "@/lib/journal/queries";
import { getJournal } from "@/lib/journal/store";
import { discardMessage, restoreMessage } from "@/lib/operations";
import { failureOf, openHarness, STUCK, DL_TASK, QUEUED, type Harness } from "@/lib/operations/test-harness";
import { CLEANUP_MIN_FILES, CLEANUP_SHARE, isCleanup } from "./cleanup";
import { until } from "./ingest-fixture";

describe("isCleanup", () => {
  it(`needs ${CLEANUP_MIN_FILES} files and ${CLEANUP_SHARE * 100} % of the tree gone in one batch`, () => {
    expect(isCleanup(19, 19)).toBe(true);
    expect(isCleanup(16, 20)).toBe(true);
    expect(isCleanup(15, 20)).toBe(false);
    expect(isCleanup(9, 9)).toBe(false);
    expect(isCleanup(0, 0)).toBe(false);
  });
});

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const actor = "http://127.0.0.1:3000";
const lastEvent = (key: string) => queryHistory(getJournal().db, key).at(-1)?.detail ?? "";

/** What `ignite clean` does to the queue: every agent folder removed, the six fixed ones made again. */
function igniteClean(ws: string): void {
  const queue = path.join(ws, ".ignite", "queue");
  for (const name of fs.readdirSync(queue)) fs.rmSync(path.join(queue, name), { recursive: true, force: true });
  for (const agent of ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator"]) fs.mkdirSync(path.join(queue, agent));
}

describe("a clean-up is not completion", () => {
  it("marks every message of a wiped queue cleared, saying what it was, on a rescan", async () => {
    const [queued, stuck, letter] = [h.keyAt(QUEUED), h.keyAt(STUCK), h.keyAt(DL_TASK)];
    igniteClean(h.ws);
    await h.service.scanNow();
    expect(h.q("status:completed")).toEqual([]);
    expect(h.summary(queued)).toMatchObject({ status: "cleared", path: null });
    expect(lastEvent(queued)).toMatch(/was removed with \d+ other files at .*a clean-up, not its agent: it was queued, never delivered; now cleared$/);
    expect(lastEvent(stuck)).toContain("it was stuck in processing");
    expect(lastEvent(letter)).toContain("it was a dead letter");
  });

  it("marks them cleared as the watcher reports the wipe", async () => {
    const queued = h.keyAt(QUEUED);
    igniteClean(h.ws);
    await until(() => h.summary(queued)?.status === "cleared", 20_000);
    expect(h.q("status:completed")).toEqual([]);
  });

  it("keeps a few deletions completed by their agents", async () => {
    const queued = h.keyAt(QUEUED);
    fs.unlinkSync(h.abs(QUEUED));
    await h.service.scanNow();
    expect(h.summary(queued)).toMatchObject({ status: "completed" });
    expect(lastEvent(queued)).toMatch(/was deleted; now completed$/);
  });

  it("says a discarded message whose archive was wiped cannot be restored", async () => {
    const queued = h.keyAt(QUEUED);
    const { path: archived } = await discardMessage(queued, { path: QUEUED, actor });
    fs.rmSync(h.abs(".ignite/archive"), { recursive: true });
    await h.service.scanNow();
    expect(h.summary(queued)).toMatchObject({ status: "discarded", path: null });
    const err = await failureOf(restoreMessage(queued, { path: archived, actor }));
    expect(err).toMatchObject({ status: 409 });
    const again = await failureOf(restoreMessage(queued, { actor }));
    expect(again.message).toMatch(/archived copy is gone from disk.*cannot be restored/);
  });
});
