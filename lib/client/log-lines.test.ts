import { describe, expect, it } from "vitest";
import { keepLast, logParts } from "./log-lines";

describe("logParts", () => {
  it("links each message file a line names", () => {
    expect(logParts("[2026-11-20 09:16:25] [INFO] 新規: architecture_request_1795133781377120.mime (type: x)")).toEqual([
      { text: "[2026-11-20 09:16:25] [INFO] 新規: " },
      { text: "architecture_request_1795133781377120.mime", file: "architecture_request_1795133781377120.mime" },
      { text: " (type: x)" },
    ]);
    expect(logParts("no file here")).toEqual([{ text: "no file here" }]);
  });
});

describe("keepLast", () => {
  it("appends whole lines and keeps the last ones", () => {
    expect(keepLast(["a"], "b\nc\n", 2)).toEqual(["b", "c"]);
    expect(keepLast(["a"], "", 5)).toEqual(["a"]);
  });
});
