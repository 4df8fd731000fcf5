import { afterEach, describe, expect, it, vi } from "vitest";
import { makeKey } from "./keys";

// Keys are in URLs and in every journal already written: the same inputs must give the same key forever.
const PINNED: [Parameters<typeof makeKey>, string][] = [
  [["ws-ignite", "leader/processed/msg_20260110_task.mime", "<176722560000.1000.0@ignite.local>", 0], "msg_20260110_task-083567e4"],
  [["s", "a/b/c", "", 3], "c-64b87a7f"],
  [["s", "weird name!!.yaml.mime", null, 0], "weird_name_yaml-00d89239"],
  [["s", "x/.mime", null, 0], "message-fb40e005"],
  [["s", "受信/メッセージ.mime", "<a@b>", 1], "_-e8e7b1da"],
];

describe("makeKey", () => {
  afterEach(() => {
    vi.doUnmock("node:crypto");
    vi.resetModules();
  });

  it("gives the keys it always gave", () => {
    for (const [args, key] of PINNED) expect(makeKey(...args)).toBe(key);
  });

  it("gives the same keys on a Node without one-shot hashing (before 20.12)", async () => {
    vi.resetModules();
    vi.doMock("node:crypto", async (importOriginal) => ({ ...(await importOriginal<typeof import("node:crypto")>()), hash: undefined }));
    const { makeKey: withoutHash } = await import("./keys");
    for (const [args, key] of PINNED) expect(withoutHash(...args)).toBe(key);
  });
});
