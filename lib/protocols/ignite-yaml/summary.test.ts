import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { previewOf } from "@/lib/journal/message-row";
import { fixturePath } from "@/lib/testing/fixtures";
import { read } from "./read";
import { blockOf, summaryOf } from "./summary";

const WS = fixturePath("ignite-yaml", "workspace");
const entryOf = (relPath: string) => read(relPath, fs.readFileSync(`${WS}/${relPath}`)).entries[0]!;
/** What the timeline's preview column shows of an entry (entry-messages.ts). */
const previewOfEntry = (relPath: string) => {
  const e = entryOf(relPath);
  return previewOf(e.summary ?? e.body);
};

describe("an IGNITE v2 message's preview", () => {
  it("is its payload, not the type, from and to the timeline's columns already show", () => {
    const preview = previewOfEntry("queue/coordinator/processed/task_list_1770261855220871.yaml");
    expect(preview).toMatch(/^goal: "READMEに導入手順を追記する" tasks: - task_id: "task_001" title: "Quick Start の草稿"/);
    expect(preview).not.toMatch(/type:|from:|to: coordinator/);
  });

  it("of a dead letter is why it failed, then what its original asked", () => {
    const preview = previewOfEntry("queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml");
    expect(preview).toMatch(/^retry_count: 3 max_retries: 3 last_error: "timeout after 3 retries" .* task_id: "task_002" title: "動作要件の節"/);
  });

  it("is the file's own text when it has no payload, and its body stays the whole file", () => {
    const text = "type: ping\nfrom: leader\nto: coder\n";
    const [e] = read("queue/coder/ping_1770261601512044.yaml", new TextEncoder().encode(text)).entries;
    expect(e?.summary).toBeUndefined();
    expect(e?.body).toBe(text);
    expect(entryOf("queue/coordinator/processed/task_list_1770261855220871.yaml").body).toMatch(/^type: task_list\nfrom: strategist\n/);
  });
});

describe("blockOf", () => {
  it("takes a key's inline value and the lines under it, dedented, up to the next top-level key", () => {
    expect(blockOf("a: 1\npayload:\n    x: 1\n    y:\n      - z\nstatus: done\n", "payload")).toBe("x: 1\ny:\n  - z");
    expect(blockOf("payload: {x: 1}\nb: 2\n", "payload")).toBe("{x: 1}");
    expect(blockOf("payload:\n- a\n- b\nnext: 1\n", "payload")).toBe("- a\n- b");
    expect(blockOf("payload:\nnext: 1\n", "payload")).toBeNull();
    expect(blockOf("payloads: 1\n", "payload")).toBeNull();
  });

  it("reads a bounded part of a hostile file: a million lines under the key, or one line of megabytes", () => {
    const many = `payload:\n${"  - x\n".repeat(1_000_000)}`;
    expect(blockOf(many, "payload")?.split("\n")).toHaveLength(40);
    const wide = `payload: ${"y".repeat(5_000_000)}\n`;
    expect(summaryOf(wide, null)).toHaveLength(1_000);
  });
});
