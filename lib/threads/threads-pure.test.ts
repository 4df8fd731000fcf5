import { describe, expect, it } from "vitest";
import { taskIdOf } from "@/lib/journal/task-id";
import { groupString, longIdHash, MAX_ADDRESSED_ID, parseGroup, slug, threadAddressOf, threadIdOf, threadIdSegment } from "./ids";
import { fenceFor, mdText } from "./transcript";

describe("taskIdOf", () => {
  it("reads a top-level task_id of a YAML or JSON body and ignores nested ones and placeholders", () => {
    expect(taskIdOf('task_id: "task_001"\ntitle: x')).toBe("task_001");
    expect(taskIdOf("title: x\ntask_id: task_002\r\n")).toBe("task_002");
    expect(taskIdOf('tasks:\n  - task_id: "task_003"')).toBeNull();
    expect(taskIdOf('task_id: "unknown"')).toBeNull();
    expect(taskIdOf('original_message: |\n  task_id: "task_004"')).toBeNull();
    expect(taskIdOf('{"task_id": 7}')).toBe("7");
    expect(taskIdOf('{"other": 1, "task": "x"}')).toBeNull();
  });
});

describe("thread ids", () => {
  it("are readable, URL-safe and stable", () => {
    expect(threadIdOf({ by: "issue", repository: "owner/repo", issue: "43" })).toBe("issue-owner-repo-43");
    expect(threadIdOf({ by: "task", taskId: "task_001" })).toBe("task-task_001");
    expect(threadIdOf({ by: "header", threadId: "thr_readme_42" })).toBe("thr_readme_42");
    expect(slug("タスク")).toBe(slug("タスク"));
    expect(slug("タスク")).toMatch(/^h[0-9a-f]{8}$/);
    expect(slug("a b/c")).toBe("a-b-c");
  });

  it("round-trip the journal's group strings", () => {
    for (const g of [{ by: "header", threadId: "t 1" }, { by: "issue", repository: "o/r", issue: "4" }, { by: "task", taskId: "x" }] as const) {
      expect(parseGroup(groupString(g))).toEqual(g);
    }
    expect(parseGroup("nonsense")).toBeNull();
  });
});

describe("transcript helpers", () => {
  it("fences a body with more backticks than it holds and escapes inline markup", () => {
    expect(fenceFor("plain")).toBe("```");
    expect(fenceFor("a ```` b")).toBe("`````");
    expect(mdText("a_b *c* [d]\nx")).toBe("a\\_b \\*c\\* \\[d\\] x");
  });
});

describe("threadIdSegment", () => {
  it("writes any id as one segment a browser keeps, and reads back the same id", () => {
    for (const id of [".", "..", "~", "~h0123456789abcdef", "a/b", "a?b#c", "100%", "thr\tx", "スレッド", "thr_readme_42"]) {
      const segment = threadIdSegment(id);
      const { pathname } = new URL(`/threads/${segment}`, "http://x");
      expect(pathname, JSON.stringify(id)).toBe(`/threads/${segment}`);
      expect(threadAddressOf(decodeURIComponent(segment)), JSON.stringify(id)).toEqual({ id });
    }
    expect(threadIdSegment("thr_readme_42")).toBe("thr_readme_42");
  });

  it("addresses an id too long for a request line by a hash", () => {
    const long = "x".repeat(MAX_ADDRESSED_ID + 1);
    expect(threadIdSegment(long)).toMatch(/^~h[0-9a-f]{16}$/);
    expect(threadAddressOf(threadIdSegment(long))).toEqual({ hash: longIdHash(long) });
    expect(longIdHash(long)).not.toBe(longIdHash(long + "y"));
  });
});
