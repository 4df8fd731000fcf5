"use client";

import { Notice } from "@/components/ui/notice";
import { Progress } from "@/components/ui/progress";
import type { SourceInfo } from "@/lib/model";
import { useSources } from "@/lib/client/use-sources";
import { indexingPaused, useJournalProblem } from "@/lib/client/use-journal-problem";

/** Problems and progress of the workspaces, live: unreadable roots or folders, and indexing in progress. */
export function SourcesNotice({ initial, pollMs }: { initial: SourceInfo[]; pollMs?: number }) {
  const { sources } = useSources(initial, pollMs);
  const broken = sources.filter((s) => s.error !== null);
  const indexing = sources.filter((s) => s.error === null && !s.indexing.done);
  const paused = indexingPaused(useJournalProblem(undefined, pollMs));
  return (
    <div aria-live="polite" className="space-y-3 empty:hidden">
      {broken.map((s) => (
        <Notice key={s.id} tone="error" title={`The ${s.protocol} workspace cannot be read`}>
          <p className="break-all font-mono text-xs">{s.root}</p>
          <p>{s.error}</p>
          <p>
            Check that the folder and the folders in it exist and are readable, or fix MAILROOM_ROOT and restart Mailroom. Messages seen
            before stay browsable, as they were.
          </p>
        </Notice>
      ))}
      {indexing.map((s) => (
        <Notice key={s.id} tone={paused ? "warning" : "info"} title={paused ? `Indexing of the ${s.protocol} workspace is paused` : `Indexing ${s.protocol} workspace…`}>
          <p className="break-all font-mono text-xs">{s.root}</p>
          {/* The numbers change every poll: keep them out of the announcements. */}
          <div aria-live="off" className="flex items-center gap-3">
            <Progress value={s.indexing.files} max={s.indexing.total} label={`Indexing ${s.root}`} />
            <span className="shrink-0 tabular-nums text-xs">
              {s.indexing.total > 0
                ? `${s.indexing.files.toLocaleString("en-US")} / ${s.indexing.total.toLocaleString("en-US")} files`
                : "counting files…"}
            </span>
          </div>
          <p className="text-xs">
            {paused ? "The journal cannot be written (see the notice above); indexing goes on by itself once it can." : "Counts below grow as files are read."}
          </p>
        </Notice>
      ))}
    </div>
  );
}
