import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_DONE_COMMANDS, ShogunDocuments } from "./documents";

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the demo shogun's commands file", () => {
  it("keeps every open command and only the newest done ones, however long the demo runs", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-shogun-docs-"));
    const docs = new ShogunDocuments(root, () => new Date("2026-11-26T10:00:00Z"));
    const total = KEEP_DONE_COMMANDS + 50;
    for (let i = 0; i < total; i++) {
      docs.addCommand({ id: `cmd_${i}`, purpose: "p", project: "x" } as Parameters<ShogunDocuments["addCommand"]>[0]);
      if (i < total - 3) docs.setCommandStatus(`cmd_${i}`, "done");
    }
    const { commands } = parse(fs.readFileSync(path.join(root, "queue", "shogun_to_karo.yaml"), "utf8")) as { commands: { id: string; status: string }[] };
    expect(commands.filter((c) => c.status === "done")).toHaveLength(KEEP_DONE_COMMANDS);
    expect(commands.filter((c) => c.status !== "done").map((c) => c.id)).toEqual([`cmd_${total - 3}`, `cmd_${total - 2}`, `cmd_${total - 1}`]);
    // The newest kept, in order.
    expect(commands[0]?.id).toBe(`cmd_${total - 3 - KEEP_DONE_COMMANDS}`);
  });
});
