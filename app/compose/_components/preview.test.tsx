import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Preview } from "./preview";

describe("Preview", () => {
  it("says what the form still needs before it can show the files, as no field may be marked yet", () => {
    const html = renderToStaticMarkup(<Preview files={undefined} error={null} stillToDo={["To: at least one recipient is required"]} pending={true} />);
    expect(html).toContain("Still to do:");
    expect(html).toContain("<li>To: at least one recipient is required</li>");
    expect(html).not.toContain("updating");
  });

  it("shows each file a send writes, with its path", () => {
    const html = renderToStaticMarkup(
      <Preview files={[{ path: ".ignite/queue/leader/user_goal_1.mime", content: "From: user\n\ngoal: x\n", newQueue: false, warning: null }]} error={null} stillToDo={[]} pending={false} />,
    );
    expect(html).toContain(".ignite/queue/leader/user_goal_1.mime");
    expect(html).toContain("goal: x");
  });
});
