import { renderToStaticMarkup } from "react-dom/server";
import { SWRConfig } from "swr";
import { describe, expect, it } from "vitest";
import type { DeadLetterItem } from "@/lib/actions";
import { BulkBar } from "./bulk-bar";

const both: DeadLetterItem = {
  key: "a-00000000", source: "ws-ignite", protocol: "ignite", path: ".ignite/queue/dead_letter/a.mime",
  originalKey: null, originalFile: "a.mime", originalTo: "ignitian_2", originalType: "task_assignment", originalFrom: "coordinator",
  threadId: null, retryCount: 3, lastError: null, movedAt: null, originalPath: null, problems: [],
  actions: [{ id: "requeue", verb: "Requeue" }, { id: "discard", verb: "Discard" }],
};
const discardOnly: DeadLetterItem = { ...both, key: "b-00000000", actions: [{ id: "discard", verb: "Discard" }] };

function bar(items: DeadLetterItem[]): string {
  return renderToStaticMarkup(
    <SWRConfig value={{ provider: () => new Map() }}>
      <BulkBar items={items} queues={["ignitian_2"]} onDone={() => {}} />
    </SWRConfig>,
  );
}

/** The radio of `action` as rendered: its attributes up to the closing bracket. */
const radio = (html: string, action: string) => new RegExp(`<input type="radio"[^>]*value="${action}"[^>]*>`).exec(html)?.[0] ?? "";

describe("the dead letters' bulk bar", () => {
  it("offers both actions for letters that all offer both", () => {
    const html = bar([both, { ...both, key: "c-00000000" }]);
    expect(radio(html, "requeue")).toContain("checked");
    expect(radio(html, "requeue")).not.toContain("disabled");
    expect(radio(html, "discard")).not.toContain("disabled");
    expect(html).not.toContain("not offered");
    expect(html).toContain("each message&#x27;s original queue");
  });

  it("offers only what every selected letter offers, and says how many lack the other", () => {
    const html = bar([both, discardOnly]);
    expect(radio(html, "requeue")).toContain("disabled");
    expect(html).toContain("(not offered by 1 selected)");
    // The one every letter offers is the one chosen, so Preview asks for it.
    expect(radio(html, "discard")).toContain("checked");
    expect(radio(html, "discard")).not.toContain("disabled");
    // No queue to pick for a discard.
    expect(html).not.toContain("original queue");
  });

  it("offers nothing, and no Preview, when the selection shares no action", () => {
    const requeueOnly = { ...both, key: "d-00000000", actions: [{ id: "requeue" as const, verb: "Requeue" }] };
    const html = bar([requeueOnly, discardOnly]);
    expect(radio(html, "requeue")).toContain("disabled");
    expect(radio(html, "discard")).toContain("disabled");
    // Unavailable but focusable (usableIf): a pressed button that turned disabled dropped the focus.
    expect(/<button[^>]*aria-disabled="true"[^>]*>Preview<\/button>/.test(html)).toBe(true);
  });

  it("lists only the queues it is given (the ones every selected letter's workspace has)", () => {
    const html = bar([both]);
    expect(html).toContain('<option value="ignitian_2">ignitian_2</option>');
    expect(html).not.toContain("⫻");
  });
});
