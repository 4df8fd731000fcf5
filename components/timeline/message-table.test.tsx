import { describe, expect, it } from "vitest";
import { renderWithCatalogs } from "@/lib/testing/render";
import type { MessageSummary } from "@/lib/model";
import { MessageTable } from "./message-table";

const v3: MessageSummary = {
  key: "task_assignment-1", source: "app-ignite", protocol: "ignite", messageId: "<m@x>", from: "leader", to: ["ignitian_1"], cc: [],
  type: "task_assignment", priority: "normal", threadId: null, inReplyTo: null, correlationId: null, repository: null, issue: null,
  date: "2026-11-20T00:00:00.000Z", agent: "ignitian_1", folder: "queue", path: "queue/ignitian_1/t.mime", status: "queued",
  rawStatus: null, stuck: false, retryCount: 0, nextRetryAt: null, problems: [], duplicate: false, deadLetterOf: null,
  preview: "do it", size: 10, updatedAt: "2026-11-20T00:00:00.000Z", sortMs: Date.parse("2026-11-20T00:00:00.000Z"), seq: 1,
};
const v2: MessageSummary = { ...v3, key: "task_assignment-2", source: "old-ignite-yaml", protocol: "ignite-yaml" };
const kick: MessageSummary = { ...v3, key: "note-3", source: "lab-kicklang", protocol: "kicklang" };

const table = (showProtocol?: boolean) =>
  renderWithCatalogs(<MessageTable items={[v3, v2, kick]} caption="Messages" showProtocol={showProtocol} />);
/** The table's text as a screen reader reads it, tags removed. */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("MessageTable: the protocol of each message", () => {
  it("says which protocol each row speaks, readable as text, when the journal holds several", () => {
    const read = text(table(true));
    expect(read).toContain("protocol IGNITE v3");
    expect(read).toContain("protocol IGNITE v2");
    expect(read).toContain("protocol KickLang");
  });

  it("does not repeat it on every row of a one-protocol console", () => {
    expect(text(table())).not.toMatch(/protocol|IGNITE|KickLang/);
  });
});

describe("MessageTable: names cut short by their column", () => {
  it("keeps each sender's and recipients' whole names in a tooltip", () => {
    const long = { ...kick, from: "RoleDefinitionAgent", to: ["Orchestrator", "agent_architecture_review"] };
    const html = renderWithCatalogs(<MessageTable items={[long]} caption="Messages" />);
    expect(html).toContain('title="RoleDefinitionAgent"');
    expect(html).toContain('title="Orchestrator, agent_architecture_review"');
  });
});

describe("MessageTable: a row's link", () => {
  it("is named by its type, sender and recipients, so tabbing from row to row tells them apart", () => {
    const link = /<a [^>]*>(.*?)<\/a>/.exec(renderWithCatalogs(<MessageTable items={[v3]} caption="Messages" />))?.[1] ?? "";
    // Each name isolated (FSI … PDI): a right-to-left override in one stops at its end.
    expect(text(link).trim()).toBe("task_assignment , from \u2068leader\u2069 to \u2068ignitian_1\u2069");
  });
});
