import { renderToStaticMarkup } from "react-dom/server";
import { SWRConfig } from "swr";
import { describe, expect, it } from "vitest";
import type { SourceInfo } from "@/lib/model";
import { SourceStatus } from "./source-status";

const base: SourceInfo = {
  id: "ws-ignite",
  protocol: "ignite",
  root: "/srv/ws",
  agents: [],
  indexing: { done: true, files: 10, total: 10, fullText: true },
  error: null,
};

describe("SourceStatus (the header, on every page)", () => {
  it("shows the first scan as a progress bar with files done of total", () => {
    const html = renderToStaticMarkup(<SourceStatus initial={[{ ...base, indexing: { done: false, files: 1200, total: 5000, fullText: false } }]} />);
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuemin="0"[^>]*aria-valuemax="5000"[^>]*aria-valuenow="1200"/);
    expect(html).toContain('aria-valuetext="1,200 of 5,000 files (24%)"');
    expect(html).toContain("1,200/5,000");
    expect(html).toContain("width:24%");
  });

  it("is indeterminate before the files are counted", () => {
    const html = renderToStaticMarkup(<SourceStatus initial={[{ ...base, indexing: { done: false, files: 0, total: 0, fullText: false } }]} />);
    expect(html).toContain('role="progressbar"');
    expect(html).not.toContain("aria-valuenow");
    expect(html).toContain('aria-valuetext="counting files"');
  });

  it("says when full-text search is still being built, and nothing once all is ready", () => {
    expect(renderToStaticMarkup(<SourceStatus initial={[{ ...base, indexing: { ...base.indexing, fullText: false } }]} />)).toContain(
      "building full-text search",
    );
    const ready = renderToStaticMarkup(<SourceStatus initial={[base]} />);
    expect(ready).not.toContain("progressbar");
    expect(ready).toContain("indexed");
  });

  it("says indexing is paused while the journal cannot be written, not indexing forever", () => {
    const journal = { code: "journal_full", file: "/data/journal.sqlite", message: "The disk is full.", action: "Free disk space." };
    const html = renderToStaticMarkup(
      <SWRConfig value={{ fallback: { "/api/health": { ok: false, journal } } }}>
        <SourceStatus initial={[{ ...base, indexing: { done: false, files: 0, total: 20000, fullText: false } }]} />
      </SWRConfig>,
    );
    expect(html).toContain("indexing paused");
    expect(html).not.toContain("animate-pulse");
  });

  it("folds many sources into one summary that opens to each, worst state first in words", () => {
    const many: SourceInfo[] = [
      base,
      { ...base, id: "ws-shogun", protocol: "shogun" },
      { ...base, id: "ws-workflow", protocol: "workflow", error: "gone" },
      { ...base, id: "ws-kicklang", protocol: "kicklang", indexing: { done: false, files: 1, total: 2, fullText: false } },
    ];
    const html = renderToStaticMarkup(<SourceStatus initial={many} />);
    expect(html).toContain("<details");
    expect(html).toContain("4 sources");
    expect(html).toContain("1 unreadable, 1 indexing");
    for (const p of ["ignite", "shogun", "workflow", "kicklang"]) expect(html).toContain(`>${p}<`);
  });
});

