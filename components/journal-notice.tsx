"use client";

import type { JournalProblem } from "@/lib/model";
import { useJournalProblem } from "@/lib/client/use-journal-problem";
import { Notice } from "./ui/notice";

const TITLES: Record<string, string> = {
  journal_full: "The journal's disk is full: new messages are not being recorded",
  journal_readonly: "The journal is read-only: new messages are not being recorded",
  journal_busy: "The journal is locked by another program: new messages are not being recorded",
  journal_io: "The journal's disk fails: new messages may not be recorded",
  journal_unopenable: "The journal cannot be opened",
  journal_version: "The journal is from a newer Mailroom",
  journal_corrupt: "The journal is damaged",
  journal_moved_aside: "An unreadable journal was moved aside",
};

/** Every page's banner for a problem with the journal file: which file, what is wrong, what to do. */
export function JournalNotice({ initial, pollMs }: { initial: JournalProblem | null; pollMs?: number }) {
  const problem = useJournalProblem(initial, pollMs);
  return (
    // role="alert" announces a problem as it appears; no live region around it, which would announce it twice.
    <div className="mx-auto max-w-[96rem] px-4 pt-4 empty:hidden sm:px-6">
      {problem ? (
        <Notice tone={problem.code === "journal_moved_aside" ? "warning" : "error"} role="alert" title={TITLES[problem.code] ?? "The journal has a problem"}>
          <p className="break-all font-mono text-xs">{problem.file}</p>
          <p>{problem.message}</p>
          <p className="font-medium">{problem.action}</p>
        </Notice>
      ) : null}
    </div>
  );
}
