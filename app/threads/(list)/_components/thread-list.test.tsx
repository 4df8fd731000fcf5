import { describe, expect, it } from "vitest";
import { renderWithCatalogs } from "@/lib/testing/render";
import type { ThreadList as ThreadListData, ThreadSummary } from "@/lib/threads/model";
import { ThreadList } from "./thread-list";

const thread: ThreadSummary = {
  id: "task_003", kind: "header", count: 3, agents: ["coordinator", "ignitian_3"], protocols: ["ignite-yaml"],
  first: "2026-11-20T00:00:00.000Z", last: "2026-11-20T00:05:00.000Z", statuses: { delivered: 3 }, stuck: 0,
};
const list = (...items: ThreadSummary[]): ThreadListData => ({ items, seq: 1, total: items.length, version: "1" });
const render = (data: ThreadListData, showProtocol = false) => renderWithCatalogs(<ThreadList q="" initial={data} showProtocol={showProtocol} />);
/** The rows' markup, the list's own row classes included. */
const rowOf = (html: string, id: string) => html.split("<tr").find((r) => r.includes(`>${id}<`)) ?? "";

describe("the thread list", () => {
  it("names each thread's protocol when the journal holds several, and not otherwise", () => {
    const two = list(thread, { ...thread, id: "cmd_048", protocols: ["shogun"], statuses: { done: 3 } });
    const text = render(two, true).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("task_003 protocol IGNITE v2 (YAML)");
    expect(text).toContain("cmd_048 protocol shogun");
    expect(render(two)).not.toContain("protocol ");
  });

  it("marks a thread with a message its protocol calls failed, whatever the word: IGNITE's dead, shogun's failed", () => {
    const html = render(list(
      { ...thread, id: "fine" },
      { ...thread, id: "died", statuses: { delivered: 2, dead: 1 } },
      { ...thread, id: "cmd_049", protocols: ["shogun"], statuses: { done: 1, failed: 1 } },
      { ...thread, id: "stuck", stuck: 1 },
    ));
    expect(rowOf(html, "fine")).not.toContain("bg-red-50");
    for (const id of ["died", "cmd_049", "stuck"]) expect(rowOf(html, id), id).toContain("bg-red-50");
  });
});
