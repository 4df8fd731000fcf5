import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SourceInfo } from "@/lib/model";
import { SourcesNotice } from "./sources-notice";

const base: SourceInfo = {
  id: "ws-ignite",
  protocol: "ignite",
  root: "/srv/ws",
  agents: [],
  indexing: { done: true, files: 10, total: 10, fullText: true },
  error: null,
};

describe("SourcesNotice", () => {
  it("shows indexing progress as files/total with a progress bar", () => {
    const html = renderToStaticMarkup(<SourcesNotice initial={[{ ...base, indexing: { done: false, files: 1200, total: 5000, fullText: false } }]} />);
    expect(html).toContain("Indexing ignite workspace");
    expect(html).toContain("1,200 / 5,000 files");
    expect(html).toMatch(/<progress[^>]*value="1200"[^>]*max="5000"/);
  });

  it("shows an indeterminate bar, not 0%, before the files are counted", () => {
    const html = renderToStaticMarkup(<SourcesNotice initial={[{ ...base, indexing: { done: false, files: 0, total: 0, fullText: false } }]} />);
    expect(html).toContain("counting files…");
    expect(html).toMatch(/<progress aria-label="Indexing \/srv\/ws"[^>]*>/);
    expect(html).not.toMatch(/<progress[^>]*value=/);
  });

  it("shows the path and the error of an unreadable workspace", () => {
    const html = renderToStaticMarkup(<SourcesNotice initial={[{ ...base, error: "workspace folder not found: /srv/ws" }]} />);
    expect(html).toContain("cannot be read");
    expect(html).toContain("/srv/ws");
    expect(html).toContain("workspace folder not found");
  });

  it("says nothing when every workspace is indexed and readable", () => {
    const html = renderToStaticMarkup(<SourcesNotice initial={[base]} />);
    expect(html).not.toContain("Indexing");
    expect(html).not.toContain("cannot be read");
  });
});
