import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ACTOR, STUCK_RETRIED, STUCK, failureOf, openHarness, type Harness } from "./test-harness";
import { requeueMessage, retryMessage } from "./index";

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());


/** Rewrite the stuck file with `text` (mode `mode`) and let the journal read it. */
async function rewriteStuck(text: string, mode = 0o600): Promise<string> {
  fs.writeFileSync(h.abs(STUCK), text);
  fs.chmodSync(h.abs(STUCK), mode);
  await h.service.scanNow();
  return h.keyAt(STUCK);
}

describe("retry now on the edge cases, as process_retry does", () => {
  it("keeps the BOM and the file's mode, and writes LF endings for a CRLF file", async () => {
    const key = await rewriteStuck("\uFEFFMIME-Version: 1.0\r\nFrom: a\r\nTo: evaluator\r\nX-IGNITE-Status: processing\r\n\r\nx: 1\r\n", 0o640);
    await retryMessage(key, { path: STUCK, actor: ACTOR });
    const bytes = fs.readFileSync(h.abs(STUCK_RETRIED));
    expect(bytes.subarray(0, 3).toString("hex")).toBe("efbbbf");
    expect(bytes.includes("\r")).toBe(false);
    expect(bytes.toString("utf8")).toMatch(/^\uFEFFMIME-Version: 1\.0\nFrom: a\nTo: evaluator\nX-IGNITE-Status: retrying\nX-IGNITE-Retry-Count: 1\n/);
    expect(bytes.toString("utf8").endsWith("\n\nx: 1\n")).toBe(true);
    expect(fs.statSync(h.abs(STUCK_RETRIED)).mode & 0o777).toBe(0o640);
  });

  it("rewrites every status line of a file marked error twice; error is its own status and retriable", async () => {
    const key = await rewriteStuck("From: a\nTo: evaluator\nX-IGNITE-Status: processing\nX-IGNITE-Status: error\nX-IGNITE-Error-Reason: boom\n\nx: 1\n");
    expect(h.summary(key)).toMatchObject({ status: "error", rawStatus: "error", stuck: false });
    await retryMessage(key, { path: STUCK, actor: ACTOR });
    const text = h.read(STUCK_RETRIED);
    expect(text.match(/^X-IGNITE-Status: .*$/gm)).toEqual(["X-IGNITE-Status: retrying", "X-IGNITE-Status: retrying"]);
    expect(text).not.toContain("Error-Reason");
  });

  it("retries a file without an empty line as upstream would: every line a header, one empty line appended", async () => {
    const key = await rewriteStuck("From: a\nTo: evaluator\nX-IGNITE-Status: processing");
    expect(h.summary(key)?.status).toBe("invalid");
    await retryMessage(key, { path: STUCK, actor: ACTOR });
    expect(h.read(STUCK_RETRIED)).toMatch(/^From: a\nTo: evaluator\nX-IGNITE-Status: retrying\nX-IGNITE-Retry-Count: 1\n.*\n\n$/s);
  });

  it("reads Retry-Count as bash does (010 is 8) and refuses one it cannot read, changing nothing", async () => {
    const key = await rewriteStuck("From: a\nTo: evaluator\nX-IGNITE-Status: processing\nX-IGNITE-Retry-Count: 010\n\nx: 1\n");
    await retryMessage(key, { path: STUCK, actor: ACTOR });
    expect(h.read(STUCK_RETRIED)).toContain("X-IGNITE-Retry-Count: 9\n");

    fs.renameSync(h.abs(STUCK_RETRIED), h.abs(STUCK));
    const again = await rewriteStuck("From: a\r\nTo: evaluator\r\nX-IGNITE-Status: processing\r\nX-IGNITE-Retry-Count: 1\r\n\r\nx: 1\r\n");
    const before = fs.readFileSync(h.abs(STUCK));
    expect(await failureOf(retryMessage(again, { path: STUCK, actor: ACTOR }))).toMatchObject({ status: 409, code: "bad_retry_count" });
    expect(fs.readFileSync(h.abs(STUCK)).equals(before)).toBe(true);
    expect(h.exists(STUCK_RETRIED)).toBe(false);
  });

  it("requeues a failed (error) message too", async () => {
    const key = await rewriteStuck("From: a\nTo: evaluator\nX-IGNITE-Status: error\n\nx: 1\n");
    expect(await requeueMessage(key, { path: STUCK, actor: ACTOR })).toMatchObject({ path: STUCK_RETRIED });
  });
});
