import { describe, expect, it } from "vitest";
import { makeKey } from "./keys";

describe("makeKey", () => {
  // Keys are in URLs and in every journal already written: the same inputs must give the same key forever.
  it("gives the keys it always gave", () => {
    expect(makeKey("ws-ignite", "leader/processed/msg_20260110_task.mime", "<176722560000.1000.0@ignite.local>", 0)).toBe("msg_20260110_task-083567e4");
    expect(makeKey("s", "a/b/c", "", 3)).toBe("c-64b87a7f");
    expect(makeKey("s", "weird name!!.yaml.mime", null, 0)).toBe("weird_name_yaml-00d89239");
    expect(makeKey("s", "x/.mime", null, 0)).toBe("message-fb40e005");
    expect(makeKey("s", "受信/メッセージ.mime", "<a@b>", 1)).toBe("_-e8e7b1da");
  });
});
