import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import { inlineParts, markdownBlocks } from "./markdown-blocks";

describe("markdownBlocks", () => {
  it("reads the shogun dashboard's headings, lists and tables", () => {
    const blocks = markdownBlocks(fs.readFileSync(fixturePath("shogun", "dashboard.md"), "utf8"));
    expect(blocks[0]).toEqual({ kind: "heading", level: 1, text: "📊 戦況報告" });
    expect(blocks[1]).toEqual({ kind: "paragraph", lines: ["最終更新: 2026-02-06 11:00"] });
    expect(blocks[3]).toEqual({ kind: "heading", level: 3, text: "cmd_048: 統合先が曖昧なページ3件" });
    expect(blocks[4]).toEqual({ kind: "list", items: ["/guides/a, /guides/b, /guides/c の統合先をご指示願う"] });
    const table = blocks.find((b) => b.kind === "table");
    expect(table).toEqual({
      kind: "table",
      head: ["cmd", "内容", "担当", "状態"],
      rows: [
        ["cmd_048", "/guides thin content整理", "足軽1,2", "進行中（subtask_048a やり直し）"],
        ["cmd_049", "README Quick Start 検証", "未割当", "待機"],
      ],
    });
  });

  it("keeps code fences (closed or not) and HTML as text", () => {
    expect(markdownBlocks("```\n<script>x</script>\n```\nafter")).toEqual([
      { kind: "code", text: "<script>x</script>" },
      { kind: "paragraph", lines: ["after"] },
    ]);
    expect(markdownBlocks("~~~\nopen\r\nto the end")).toEqual([{ kind: "code", text: "open\nto the end" }]);
    expect(markdownBlocks("<img src=x onerror=alert(1)>\n[a](javascript:x)")).toEqual([
      { kind: "paragraph", lines: ["<img src=x onerror=alert(1)>", "[a](javascript:x)"] },
    ]);
  });
});

describe("inlineParts", () => {
  it("splits bold and code spans, leaving the rest plain", () => {
    expect(inlineParts("a **b** `c` d")).toEqual([
      { text: "a ", style: "plain" }, { text: "b", style: "strong" }, { text: " ", style: "plain" }, { text: "c", style: "code" }, { text: " d", style: "plain" },
    ]);
    expect(inlineParts("")).toEqual([{ text: "", style: "plain" }]);
    expect(inlineParts("**unclosed")).toEqual([{ text: "**unclosed", style: "plain" }]);
  });
});
