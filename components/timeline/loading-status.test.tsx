// The timeline's loading status, rendered to markup.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LoadingStatus } from "./loading-status";

describe("LoadingStatus", () => {
  it("says how many files of the tree are loaded, and down to when the newest are all there, in a live region", () => {
    const html = renderToStaticMarkup(
      <LoadingStatus loading={{ loaded: 12_000, total: 100_000, completeAfter: "2026-02-04T08:55:30.000Z" }} filtered={false} />,
    );
    expect(html).toMatch(/^<p role="status" aria-live="polite"/);
    expect(html).toContain("newest 12,000 of 100,000 files loaded");
    expect(html).toContain("Every message after 2026-02-04 08:55:30 UTC is here; older ones are still loading.");
  });

  it("claims nothing it cannot, and says a search covers only what is loaded", () => {
    const html = renderToStaticMarkup(<LoadingStatus loading={{ loaded: 0, total: 100_000, completeAfter: null }} filtered />);
    expect(html).toContain("Loading the workspace: 0 of 100,000 files loaded. Messages still loading may belong anywhere in this list.");
    expect(html).toContain("This search covers only what is loaded so far.");
    const read = renderToStaticMarkup(<LoadingStatus loading={{ loaded: 5, total: 5, completeAfter: new Date(-8.64e15).toISOString() }} filtered={false} />);
    expect(read).toContain("Every file is read; the last steps are under way.");
  });

  it("is an empty live region once the scan is done", () => {
    expect(renderToStaticMarkup(<LoadingStatus loading={undefined} filtered={false} />)).toMatch(/^<p [^>]*><\/p>$/);
  });
});
