import { renderToStaticMarkup } from "react-dom/server";
import { renderWithCatalogs } from "@/lib/testing/render";
import { describe, expect, it } from "vitest";
import type { DeadLetterItem } from "@/lib/actions";
import { DeadLetterRow } from "./dead-letter-row";

const letter: DeadLetterItem = {
  key: "task_assignment_1_dlq_2-00000000", source: "ws-ignite", protocol: "ignite", path: ".ignite/queue/dead_letter/task_assignment_1_dlq_2.mime",
  originalKey: null, originalFile: "task_assignment_1.mime", originalTo: "ignitian_2", originalType: "task_assignment", originalFrom: "coordinator",
  threadId: null, retryCount: 3, lastError: "timeout after 3 retries", movedAt: "2026-11-20T00:00:00.000Z", originalPath: null, problems: [],
  actions: [{ id: "requeue", verb: "Requeue" }, { id: "discard", verb: "Discard" }],
};

function row(item: DeadLetterItem): string {
  const noop = () => {};
  return renderToStaticMarkup(
    <table><tbody>
      <DeadLetterRow item={item} selectable selected={false} onSelect={noop} busy={false} done={null} onRequeue={noop} onDiscard={noop} onUndo={noop} />
    </tbody></table>,
  );
}

describe("a dead letter's row", () => {
  it("offers Requeue, Discard and a checkbox as its protocol offers them, whichever protocol it is", () => {
    for (const item of [letter, { ...letter, protocol: "ignite-yaml" as const, path: "queue/dead_letter/task_assignment_1.yaml" }]) {
      const html = row(item);
      expect(html).toContain(">Requeue<");
      expect(html).toContain(">Discard<");
      expect(html).toContain('type="checkbox"');
    }
    // A letter holding no original to requeue: Discard alone.
    const discardOnly = row({ ...letter, actions: [{ id: "discard", verb: "Discard" }] });
    expect(discardOnly).not.toContain(">Requeue<");
    expect(discardOnly).toContain(">Discard<");
  });

  it("offers no action on a letter whose protocol offers none, and keeps its columns", () => {
    const html = row({ ...letter, actions: [] });
    expect(html).not.toContain(">Requeue<");
    expect(html).not.toContain(">Discard<");
    expect(html).not.toContain('type="checkbox"');
    expect(html).toContain("Read only");
    expect(html.match(/<td/g)?.length).toBe(row(letter).match(/<td/g)?.length);
  });

  it("says which protocol it is when the list holds several", () => {
    const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text(renderWithCatalogs(<table><tbody><DeadLetterRow item={letter} showProtocol selectable selected={false} onSelect={() => {}} busy={false} done={null} onRequeue={() => {}} onDiscard={() => {}} onUndo={() => {}} /></tbody></table>))).toContain("dead letter protocol IGNITE v3");
    expect(text(row(letter))).not.toContain("protocol");
  });
});
