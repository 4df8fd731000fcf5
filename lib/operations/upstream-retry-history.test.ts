import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ignite } from "@/lib/protocols/fixtures";
import { STUCK_RETRIED, STUCK, openHarness, type Harness } from "./test-harness";

const { removeHeader, setHeader } = ignite;

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());


describe("the queue monitor's own retry, seen by ingest", () => {
  it("adds one history entry (retried), not one per rewrite", async () => {
    const key = h.keyAt(STUCK);
    const before = h.history(key).length;
    // process_retry: remove-header ×2, update-status with the retry headers; then update-status
    // again and mv, each journaled as the watcher would report it.
    const steps: ((t: string) => string)[] = [
      (t) => removeHeader(t, "X-IGNITE-Error-Reason"),
      (t) => removeHeader(t, "X-IGNITE-Error-At"),
      (t) => setHeader(setHeader(t, "X-IGNITE-Status", "retrying"), "X-IGNITE-Retry-Count", "1"),
      (t) => setHeader(t, "X-IGNITE-Status", "retrying"),
    ];
    for (const step of steps) {
      fs.writeFileSync(h.abs(STUCK), step(h.read(STUCK)));
      await h.service.syncPaths([h.abs(STUCK)]);
    }
    fs.renameSync(h.abs(STUCK), h.abs(STUCK_RETRIED));
    await h.service.syncPaths([h.abs(STUCK), h.abs(STUCK_RETRIED)]);

    expect(h.summary(key)).toMatchObject({ status: "retrying", path: STUCK_RETRIED, retryCount: 1 });
    expect(h.history(key).slice(before)).toEqual(["retried"]);
  });

  it("keeps a rewrite long after the last one as its own entry", async () => {
    const key = h.keyAt(STUCK);
    const before = h.history(key).length;
    const earlier = new Date(Date.now() - 60_000);
    fs.writeFileSync(h.abs(STUCK), setHeader(h.read(STUCK), "X-IGNITE-Status", "delivered"));
    fs.utimesSync(h.abs(STUCK), earlier, earlier);
    await h.service.syncPaths([h.abs(STUCK)]);
    fs.writeFileSync(h.abs(STUCK), setHeader(h.read(STUCK), "X-IGNITE-Note", "x"));
    await h.service.syncPaths([h.abs(STUCK)]);
    expect(h.history(key).slice(before)).toEqual(["status", "rewritten"]);
  });
});
