// IGNITE v2's dead original, requeued from its own page: through the dead letter that holds it, as
// IGNITE v3's is (requeue.test.ts), on a temp copy of the v2 fixture.
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getMessage } from "@/lib/journal";
import { openHarness, type Harness } from "./test-harness";
import { planMessageAction } from "./message-actions";

const LETTER = "queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml";
const ORIGINAL = "queue/ignitian_2/processed/task_assignment_1770261903611907.yaml";
const REQUEUED = "queue/ignitian_2/task_assignment_1770261903611907.yaml";
const actor = "http://127.0.0.1:3000";

let h: Harness;
beforeEach(async () => {
  h = await openHarness("ignite-yaml");
});
afterEach(() => h.close());

/** The fixture keeps only the letter: its original is put where it failed and seen there, then deleted after the letter is written, as the monitor does. */
async function deadOriginal(): Promise<string> {
  const letter = h.read(LETTER);
  const original = letter.split("original_message: |\n")[1]!.replace(/^ {4}/gm, "");
  fs.rmSync(h.abs(LETTER));
  fs.mkdirSync(h.abs("queue/ignitian_2/processed"), { recursive: true });
  fs.writeFileSync(h.abs(ORIGINAL), original);
  await h.service.scanNow();
  const key = h.keyAt(ORIGINAL);
  fs.writeFileSync(h.abs(LETTER), letter);
  fs.rmSync(h.abs(ORIGINAL));
  await h.service.scanNow();
  return key;
}

describe("IGNITE v2: a dead original's own page", () => {
  it("offers its requeue, to the queue it failed in, and requeues it through its dead letter", async () => {
    const key = await deadOriginal();
    expect(h.summary(key)).toMatchObject({ status: "dead", path: null, agent: "ignitian_2" });
    const detail = await getMessage(key);
    expect(detail?.actions.map((a) => a.id)).toEqual(["requeue"]);
    expect(detail?.actions[0]?.queue).toBe("ignitian_2");
    // Its page links the letter that says why it failed.
    expect(detail?.heldBy).toBe(h.keyAt(LETTER));

    const result = await (await planMessageAction(key, "requeue", { actor })).run();
    // The original goes on under its own key, its letter archived beside it.
    expect(result).toMatchObject({ key, path: REQUEUED, archived: { path: expect.stringContaining("archive") } });
    expect(h.exists(REQUEUED)).toBe(true);
    expect(h.exists(LETTER)).toBe(false);
  });

  it("offers nothing on a delivered message whose file is gone", async () => {
    const done = h.q("status:delivered")[0];
    expect(done).toBeDefined();
    fs.rmSync(h.abs(done!.path!));
    await h.service.scanNow();
    expect((await getMessage(done!.key))?.actions).toEqual([]);
  });
});
