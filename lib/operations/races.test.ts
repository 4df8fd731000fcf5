// Never lose or duplicate a message: vanished sources, taken targets, concurrent actions and a
// crash between the two steps of a requeue.
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDeadLetters } from "@/lib/journal";
import { ignite } from "@/lib/protocols/fixtures";
import { createFile } from "./fs";
import { STUCK_RETRIED, DL_ARCH, STUCK, failureOf, openHarness, statusOf, type Harness } from "./test-harness";
import { discardMessage, requeueMessage, retryMessage } from "./index";

const { parseDeadLetterBody, splitHeaderBlock, requeuedText } = ignite;

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const actor = "test";
const TARGET = ".ignite/queue/architect/architecture_request_1795133781377120.mime";
const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;
const tempFiles = () => h.tree().filter((p) => p.includes(".tmp-"));

describe("the file moved or vanished since the page loaded", () => {
  it("a dead letter deleted behind the journal's back is a 409 and nothing is written", async () => {
    const key = h.keyAt(DL_ARCH);
    fs.unlinkSync(h.abs(DL_ARCH));
    const before = h.tree();
    const err = await failureOf(requeueMessage(key, { path: DL_ARCH, actor }));
    expect(err).toMatchObject({ status: 409, code: "source_gone" });
    expect(err.message).toContain(DL_ARCH);
    expect(h.tree()).toEqual(before);
  });

  it("a path that is no longer the message's is a 409 naming where it is now", async () => {
    const key = h.keyAt(STUCK);
    const err = await failureOf(retryMessage(key, { path: ".ignite/queue/evaluator/processed/other.mime", actor }));
    expect(err).toMatchObject({ status: 409, code: "moved" });
    expect(err.message).toContain(STUCK);
  });

  it("a taken target is a 409 that keeps both files as they were", async () => {
    fs.writeFileSync(h.abs(TARGET), "already here");
    const before = h.tree();
    const err = await failureOf(requeueMessage(h.keyAt(DL_ARCH), { actor }));
    expect(err).toMatchObject({ status: 409, code: "target_exists" });
    expect(h.tree()).toEqual(before);
    expect(h.read(TARGET)).toBe("already here");
  });
});

describe("concurrent actions", () => {
  it("twenty concurrent requeues of one dead letter: exactly one wins", async () => {
    const key = h.keyAt(DL_ARCH);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => statusOf(requeueMessage(key, { path: DL_ARCH, actor }))));
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(19);
    expect(h.tree().filter((p) => p.includes("architecture_request_1795133781377120"))).toEqual([
      ".ignite/archive/mailroom/queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime",
      TARGET,
    ]);
    expect(tempFiles()).toEqual([]);
  });

  it("requeues to two different queues racing: the message still ends up in exactly one", async () => {
    const key = h.keyAt(DL_ARCH);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => statusOf(requeueMessage(key, { to: i % 2 ? "architect" : "leader", actor }))),
    );
    expect(count(statuses, 200)).toBe(1);
    const copies = h.tree().filter((p) => p.includes("/queue/") && p.endsWith("architecture_request_1795133781377120.mime"));
    expect(copies).toHaveLength(1);
    expect(h.exists(DL_ARCH)).toBe(false);
  });

  it("a retry racing a discard of the same stuck message: one wins, the message exists once", async () => {
    const key = h.keyAt(STUCK);
    const statuses = await Promise.all([
      ...Array.from({ length: 10 }, () => statusOf(retryMessage(key, { actor }))),
      ...Array.from({ length: 10 }, () => statusOf(discardMessage(key, { actor }))),
    ]);
    expect(count(statuses, 200)).toBe(1);
    const copies = h.tree().filter((p) => p.endsWith("evaluation_request_1795136092377001.mime"));
    expect(copies).toHaveLength(1);
  });
});

describe("a crash between the two steps", () => {
  it("of a move out of processed/ leaves a duplicate the journal flags, and nothing is lost", async () => {
    const key = h.keyAt(STUCK);
    // Step one of moveWithContent only: the new file exists, the old one was never unlinked.
    await createFile(h.abs(STUCK_RETRIED), requeuedText(h.read(STUCK), { requeuedFrom: STUCK, at: new Date() }), STUCK_RETRIED);
    await h.service.scanNow();
    const both = h.q("mid:179513609241.40031.74602887591896938@ignite.local");
    expect(both.map((m) => m.path).sort()).toEqual([STUCK_RETRIED, STUCK]);
    expect(both.every((m) => m.duplicate)).toBe(true);
    expect(both.map((m) => m.key)).toContain(key);
  });

  it("of a dead letter's requeue leaves the dead letter flagged as already requeued; a retry of the action is refused", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const info = parseDeadLetterBody(splitHeaderBlock(h.read(DL_ARCH)).body);
    await createFile(h.abs(TARGET), requeuedText(info.originalText ?? "", { requeuedFrom: DL_ARCH, at: new Date() }), TARGET);
    await h.service.scanNow();

    expect(h.exists(DL_ARCH) && h.exists(TARGET)).toBe(true);
    const listed = listDeadLetters().items.find((d) => d.key === dlKey);
    expect(listed).toMatchObject({ originalPath: TARGET });
    expect(h.summary(listed?.originalKey ?? "")).toMatchObject({ status: "queued", path: TARGET });
    expect(await failureOf(requeueMessage(dlKey, { actor }))).toMatchObject({ status: 409, code: "target_exists" });
    // Discarding the leftover dead letter finishes the job.
    await discardMessage(dlKey, { actor });
    expect(listDeadLetters().items.some((d) => d.key === dlKey)).toBe(false);
  });
});
