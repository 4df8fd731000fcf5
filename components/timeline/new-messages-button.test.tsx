// The "new messages" button's words, rendered to markup.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PENDING_LIMIT } from "@/lib/client/timeline";
import { NewMessagesButton } from "./new-messages-button";

const render = (props: Partial<Parameters<typeof NewMessagesButton>[0]>) =>
  renderToStaticMarkup(<NewMessagesButton count={0} overflow={false} loading={false} error={null} onShow={() => undefined} {...props} />);

describe("NewMessagesButton", () => {
  it("counts what the poll held back, and is not there when nothing was", () => {
    expect(render({ count: 1 })).toContain("1 new message<");
    expect(render({ count: 1200 })).toContain("1,200 new messages");
    expect(render({ count: 0 })).toBe("");
  });

  it("past what a list holds back, offers the newest page instead of a count it does not know", () => {
    expect(render({ count: PENDING_LIMIT, overflow: true })).toContain("More than 500 new messages: show the newest");
    expect(render({ count: 0, overflow: true })).toContain("New messages: show the newest");
  });

  it("says while the newest page loads, and why it could not", () => {
    expect(render({ overflow: true, loading: true })).toMatch(/disabled=""[^>]*>.*Loading the newest messages…/);
    expect(render({ overflow: true, error: "the server answered 500" })).toContain("Could not load them: the server answered 500");
  });
});
