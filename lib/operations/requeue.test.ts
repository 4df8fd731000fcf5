import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDeadLetters } from "@/lib/journal";
import { ignite } from "@/lib/protocols/fixtures";
import { DL_ARCH, DL_TASK, QUEUED, STUCK, failureOf, openHarness, type Harness } from "./test-harness";
import { discardMessage, requeueMessage, restoreMessage } from "./index";

const { getHeader, parseDeadLetterBody, parseReference, splitHeaderBlock } = ignite;

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const actor = "http://127.0.0.1:3000";
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const TARGET = ".ignite/queue/architect/architecture_request_1795133781377120.mime";
const ARCHIVED = ".ignite/archive/mailroom/queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime";
const embedded = (dlPath: string) => parseDeadLetterBody(splitHeaderBlock(h.read(dlPath)).body).originalText ?? "";

describe("requeue a dead letter", () => {
  it("writes the original back to its queue, archives the dead letter, and gives the original's key back", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const originalKey = h.summary(dlKey)?.deadLetterOf ?? "";
    const original = embedded(DL_ARCH);

    const result = await requeueMessage(dlKey, { path: DL_ARCH, actor });

    expect(result).toEqual({ key: originalKey, path: TARGET, archived: { key: dlKey, path: ARCHIVED } });
    const text = h.read(TARGET);
    for (const name of ["X-IGNITE-Status", "X-IGNITE-Processed-At", "X-IGNITE-Retry-Count", "X-IGNITE-Last-Retry-At", "X-IGNITE-Next-Retry-After"]) {
      expect(getHeader(text, name)).toBeNull();
    }
    expect(getHeader(text, "X-IGNITE-Requeued-At")).toMatch(ISO_WITH_OFFSET);
    expect(getHeader(text, "X-IGNITE-Requeued-From")).toBe(DL_ARCH);
    expect(getHeader(text, "Message-ID")).toBe(getHeader(original, "Message-ID"));
    expect(h.exists(DL_ARCH)).toBe(false);
    expect(h.exists(ARCHIVED)).toBe(true);

    expect(h.summary(originalKey)).toMatchObject({ status: "queued", folder: "queue", path: TARGET, agent: "architect" });
    // Archived as requeued, not discarded: marked with where its original went, and nothing else changed.
    expect(h.summary(dlKey)).toMatchObject({ status: "requeued", folder: "archive", path: ARCHIVED });
    expect(getHeader(h.read(ARCHIVED), "X-IGNITE-Requeued-To")).toBe(TARGET);
    expect(h.history(dlKey)).not.toContain("discarded");
    expect(h.history(originalKey)).toEqual(expect.arrayContaining(["requeued", "requeue by operator"]));
    // Back in its queue before its dead letter left dead_letter/: never discarded on the way.
    expect(h.history(originalKey)).not.toContain("status");
    expect(h.history(dlKey)).toContain("requeue by operator");
    expect(listDeadLetters().items.map((d) => d.path)).toEqual([DL_TASK]);
  });

  it("is undone as the page undoes it: the requeued copy discarded, then the dead letter restored from where it was archived", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const letterBefore = h.read(DL_ARCH);
    const originalKey = h.summary(dlKey)?.deadLetterOf ?? "";
    const result = await requeueMessage(dlKey, { path: DL_ARCH, actor });
    await discardMessage(result.key, { path: result.path, actor });
    expect(result.archived?.key).toBe(dlKey);
    expect(await restoreMessage(dlKey, { path: result.archived?.path, actor })).toEqual({ key: dlKey, path: DL_ARCH });
    expect(h.exists(TARGET)).toBe(false);
    expect(h.summary(dlKey)).toMatchObject({ status: "dead", folder: "dead_letter", path: DL_ARCH });
    // Back as the monitor wrote it: the requeue's mark is gone with the requeue.
    expect(h.read(DL_ARCH)).toBe(letterBefore);
    expect(listDeadLetters().items.map((d) => d.path).sort()).toEqual([DL_ARCH, DL_TASK].sort());
    expect(h.summary(originalKey)?.status).not.toBe("queued");
    // Its original is the discarded copy, in the archive: not "back on disk" (the list's badge says to discard the letter then).
    expect(listDeadLetters().items.find((d) => d.path === DL_ARCH)).toMatchObject({ originalKey, originalPath: null });
    // Nor is that copy restored while its letter is dead again: the message would be queued and dead at once.
    const copy = `.ignite/archive/mailroom/${result.path.slice(".ignite/".length)}`;
    expect(h.exists(copy)).toBe(true);
    expect(await failureOf(restoreMessage(result.key, { path: copy, actor }))).toMatchObject({
      status: 409, message: expect.stringContaining(`is held by the dead letter .ignite/queue/dead_letter/${DL_ARCH.split("/").at(-1)}`),
    });
    expect(h.exists(copy)).toBe(true);
  });

  it("restores a requeued dead letter only once its requeued message is gone: never both queued and dead", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const result = await requeueMessage(dlKey, { path: DL_ARCH, actor });
    await expect(restoreMessage(dlKey, { path: result.archived?.path, actor })).rejects.toMatchObject({
      status: 409, code: "conflict", message: expect.stringContaining(`its message is still at ${TARGET}`),
    });
    expect(h.exists(ARCHIVED)).toBe(true);
    expect(h.exists(DL_ARCH)).toBe(false);
  });

  it("keeps the letter's permission bits through its mark and back, and refuses it back while its copy is being processed", async () => {
    fs.chmodSync(h.abs(DL_ARCH), 0o644);
    const dlKey = h.keyAt(DL_ARCH);
    await requeueMessage(dlKey, { path: DL_ARCH, actor });
    expect(fs.statSync(h.abs(ARCHIVED)).mode & 0o7777).toBe(0o644);
    // The monitor hands the copy to its agent: processed/ beside where the requeue put it.
    const processed = TARGET.replace("/architect/", "/architect/processed/");
    fs.mkdirSync(path.dirname(h.abs(processed)), { recursive: true });
    fs.renameSync(h.abs(TARGET), h.abs(processed));
    await expect(restoreMessage(dlKey, { path: ARCHIVED, actor })).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`still at ${processed}`) });
    fs.rmSync(h.abs(processed));
    await restoreMessage(dlKey, { path: ARCHIVED, actor });
    expect(fs.statSync(h.abs(DL_ARCH)).mode & 0o7777).toBe(0o644);
  });

  it("restores a discarded file that is not UTF-8 as it is: no mark to take off", async () => {
    const latin1 = ".ignite/queue/leader/latin1_1795136392801166.mime";
    fs.writeFileSync(h.abs(latin1), Buffer.concat([Buffer.from(h.read(QUEUED).replace(/Message-ID: <[^>]+>/, "Message-ID: <latin1@x>")), Buffer.from([0xe9, 0x0a])]));
    await h.service.scanNow();
    const key = h.keyAt(latin1);
    const discarded = await discardMessage(key, { path: latin1, actor });
    expect(await restoreMessage(key, { path: discarded.path, actor })).toEqual({ key, path: latin1 });
    expect(fs.readFileSync(h.abs(latin1)).at(-2)).toBe(0xe9);
  });

  it("writes a file the IGNITE tools read exactly like the original", async () => {
    const original = parseReference(embedded(DL_ARCH));
    await requeueMessage(h.keyAt(DL_ARCH), { actor });
    const requeued = parseReference(h.read(TARGET));
    for (const field of ["message_id", "from", "to", "type", "priority", "thread_id", "body", "repository", "issue"]) {
      expect(requeued[field], field).toEqual(original[field]);
    }
    expect(requeued.status).toBe("");
    expect(requeued.requeued_from).toBe(DL_ARCH);
  });

  it("requeues to another existing queue when asked", async () => {
    const result = await requeueMessage(h.keyAt(DL_TASK), { to: "ignitian_1", actor });
    expect(result.path).toBe(".ignite/queue/ignitian_1/task_assignment_1795135151004518.mime");
    expect(h.exists(result.path)).toBe(true);
  });

  it.each([
    ["nobody", "unknown_queue"],
    ["dead_letter", "unknown_queue"],
  ])("refuses the queue %s with a 400 and changes nothing", async (to, code) => {
    const before = h.tree();
    const err = await failureOf(requeueMessage(h.keyAt(DL_ARCH), { to, actor }));
    expect(err).toMatchObject({ status: 400, code });
    expect(err.message).toContain(`"${to}"`);
    expect(h.tree()).toEqual(before);
  });

  it("edit & requeue: replaces the YAML body, keeps the headers", async () => {
    const body = 'question: "CIキャッシュ、再確認"\ndeadline: "tomorrow"\n';
    await requeueMessage(h.keyAt(DL_ARCH), { body, actor });
    const ref = parseReference(h.read(TARGET));
    expect(ref.body).toBe(body);
    expect(ref.thread_id).toBe("thr_ci_cache_57");
  });

  it("refuses a body that is not YAML with a 400 naming line and column, and changes nothing", async () => {
    const before = h.tree();
    const err = await failureOf(requeueMessage(h.keyAt(DL_ARCH), { body: "task_id: ok\n  bad: [unclosed\n", actor }));
    expect(err).toMatchObject({ status: 400, code: "bad_body" });
    expect(err.message).toMatch(/line \d+, column \d+/);
    expect(h.tree()).toEqual(before);
  });

  it("a requeued message the agent then finishes is completed, not dead again", async () => {
    const result = await requeueMessage(h.keyAt(DL_ARCH), { actor });
    fs.unlinkSync(h.abs(result.path));
    await h.service.scanNow();
    expect(h.summary(result.key)).toMatchObject({ status: "completed", path: null });
    // Its dead letter restored to dead_letter/ makes it dead again, as a fresh journal would read it.
    await restoreMessage(h.keyAt(ARCHIVED), { actor });
    expect(h.summary(result.key)).toMatchObject({ status: "dead", path: null });
  });

  it("a message whose dead letter was discarded, then requeued from the archive's copy, is requeued", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const originalKey = h.summary(dlKey)?.deadLetterOf ?? "";
    await discardMessage(dlKey, { actor });
    expect(h.summary(originalKey)).toMatchObject({ status: "discarded", path: null });
    // Another tool writes the original back into its queue.
    fs.writeFileSync(h.abs(TARGET), embedded(ARCHIVED));
    await h.service.scanNow();
    expect(h.summary(originalKey)).toMatchObject({ status: "queued", path: TARGET });
    expect(h.history(originalKey).at(-1)).toBe("requeued");
  });

  it("requeues a dead original through the dead letter that holds it", async () => {
    const dlKey = h.keyAt(DL_ARCH);
    const originalKey = h.summary(dlKey)?.deadLetterOf ?? "";
    expect(h.summary(originalKey)).toMatchObject({ status: "dead", path: null });
    expect(await requeueMessage(originalKey, { actor })).toEqual({ key: originalKey, path: TARGET, archived: { key: dlKey, path: ARCHIVED } });
  });
});

describe("a requeue that stopped half-way", () => {
  it("is not done again once the copy it wrote was taken by its agent: the message would be delivered twice", async () => {
    // What a crash between the requeue's two steps leaves: the copy written (and handed on by the monitor), the letter still dead.
    const handed = TARGET.replace("/architect/", "/architect/processed/");
    fs.mkdirSync(path.dirname(h.abs(handed)), { recursive: true });
    fs.writeFileSync(h.abs(handed), embedded(DL_ARCH));
    const before = h.tree();
    expect(await failureOf(requeueMessage(h.keyAt(DL_ARCH), { path: DL_ARCH, actor }))).toMatchObject({
      status: 409, code: "already_requeued", message: expect.stringContaining(`${handed} already holds the message ${DL_ARCH} holds`),
    });
    expect(h.tree()).toEqual(before);
  });

  it("says a queue folder that is a link is one", async () => {
    fs.symlinkSync(h.abs(".ignite/queue/architect"), h.abs(".ignite/queue/linked"));
    expect(await failureOf(requeueMessage(h.keyAt(DL_ARCH), { path: DL_ARCH, to: "linked", actor }))).toMatchObject({
      status: 400, message: "to: .ignite/queue/linked is a link; Mailroom never writes through links",
    });
  });
});

describe("requeue a stuck message", () => {
  it("moves it back to its queue without the lifecycle headers, under the same key", async () => {
    const key = h.keyAt(STUCK);
    fs.chmodSync(h.abs(STUCK), 0o644);
    const result = await requeueMessage(key, { path: STUCK, actor });
    // The same message back in its queue keeps its file's mode, as the monitor's moves do.
    expect(fs.statSync(h.abs(result.path)).mode & 0o7777).toBe(0o644);
    expect(result).toEqual({ key, path: ".ignite/queue/evaluator/evaluation_request_1795136092377001.mime" });
    const text = h.read(result.path);
    expect(getHeader(text, "X-IGNITE-Status")).toBeNull();
    expect(getHeader(text, "X-IGNITE-Processed-At")).toBeNull();
    expect(getHeader(text, "X-IGNITE-Requeued-From")).toBe(STUCK);
    expect(h.exists(STUCK)).toBe(false);
    expect(h.summary(key)).toMatchObject({ status: "queued", stuck: false, path: result.path });
  });

  it("is a 409 for a message that is neither dead nor in processed/, and changes nothing", async () => {
    const before = h.tree();
    expect(await failureOf(requeueMessage(h.keyAt(QUEUED), { actor }))).toMatchObject({ status: 409, code: "not_applicable" });
    expect(h.tree()).toEqual(before);
  });
});
