import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LogTail } from "./log-tail";

const logs = [{ source: "ws", name: "queue_monitor.log" }, { source: "ws", name: "events.jsonl" }];

describe("LogTail", () => {
  it("draws the first log's tail the server read with the page, its message files linked", () => {
    const html = renderToString(
      <LogTail logs={logs} start={{ ...logs[0]!, text: "[12:00:01] moved task_1.mime\n[12:00:02] idle\n", to: 44 }} pollMs={1000} multiSource={false} />,
    );
    expect(html).toContain("[12:00:02] idle");
    expect(html).toMatch(/<a [^>]*href="\/messages\?q=path%3Atask_1.mime"[^>]*>task_1.mime<\/a>/);
  });

  it("starts empty without one (the live tail reads it)", () => {
    const html = renderToString(<LogTail logs={logs} start={null} pollMs={1000} multiSource={false} />);
    expect(html).not.toContain("idle");
    expect(html).toContain('aria-label="queue_monitor.log, last lines"');
  });
});
