import { describe, expect, it } from "vitest";
import { countOf } from "./count";

describe("countOf", () => {
  it("groups by thousands and puts the noun in the plural but for one", () => {
    expect(countOf(0, "message")).toBe("0 messages");
    expect(countOf(1, "message")).toBe("1 message");
    expect(countOf(99019, "file")).toBe("99,019 files");
  });

  it("takes an irregular plural", () => {
    expect(countOf(1, "reply", "replies")).toBe("1 reply");
    expect(countOf(1200, "message is", "messages are")).toBe("1,200 messages are");
  });
});
