import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { JournalProblem } from "@/lib/model";
import { JournalNotice } from "./journal-notice";

const full: JournalProblem = {
  code: "journal_full",
  file: "/data/mailroom/journal-0123456789ab.sqlite",
  message: "The disk holding the journal is full (SQLITE_FULL: database or disk is full).",
  action: "Free disk space on the file system of /data/mailroom. Mailroom tries again every 5 s and catches up by itself; no restart is needed.",
};

describe("JournalNotice (under the header, on every page)", () => {
  it("names the file, what is wrong and what to do", () => {
    const html = renderToStaticMarkup(<JournalNotice initial={full} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain("disk is full: new messages are not being recorded");
    expect(html).toContain(full.file);
    expect(html).toContain(full.message);
    expect(html).toContain(full.action);
  });

  it("tells of a journal moved aside as a warning", () => {
    const html = renderToStaticMarkup(<JournalNotice initial={{ ...full, code: "journal_moved_aside", file: `${full.file}.corrupt-2026-11-26T10-00-00-000Z` }} />);
    expect(html).toContain("An unreadable journal was moved aside");
    expect(html).toContain(".corrupt-2026-11-26T10-00-00-000Z");
    expect(html).toContain("bg-amber-50");
  });

  it("shows nothing while all is well", () => {
    expect(renderToStaticMarkup(<JournalNotice initial={null} />)).not.toContain("journal");
  });
});
