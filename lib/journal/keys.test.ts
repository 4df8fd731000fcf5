import { afterEach, describe, expect, it, vi } from "vitest";
import { makeEntryKey, makeKey } from "./keys";

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

describe("makeEntryKey", () => {
  it("gives the keys it always gave", () => {
    expect(makeEntryKey("ws-kicklang", ".kicklang/channels/status.jsonl", "6f1c", 1234, "6f1c", 0)).toBe("status-000000001234-24c3d1a5");
    expect(makeEntryKey("s", "queue/inbox/karo.yaml", "msg_1", 0, "msg_1", 2)).toMatch(/^karo-000000000000-[0-9a-f]{8}$/);
  });

  it("sorts a file's entries in the order they were written, whatever their ids", () => {
    const starts = [0, 97, 1_024, 65_536, 104_857_600, 999_999_999_999];
    const keys = starts.map((start, i) => makeEntryKey("s", "c/general.jsonl", `id-${9 - i}`, start, `id-${9 - i}`, 0));
    expect([...keys].sort()).toEqual(keys);
  });

  it("differs for two entries at one offset (a rewritten inbox), and on each attempt", () => {
    const a = makeEntryKey("s", "inbox/karo.yaml", "msg_1", 0, "msg_1", 0);
    expect(makeEntryKey("s", "inbox/karo.yaml", "msg_2", 0, "msg_2", 0)).not.toBe(a);
    expect(makeEntryKey("s", "inbox/karo.yaml", "msg_1", 0, "msg_1", 1)).not.toBe(a);
  });
});
