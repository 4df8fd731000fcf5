"use client";

import type { SourceInfo } from "@/lib/model";
import { useSources } from "@/lib/client/use-sources";
import { indexingPaused, useJournalProblem } from "@/lib/client/use-journal-problem";
import { IndexingProgress } from "./indexing-progress";
import { cn } from "./ui/cn";

/** The header's compact view of the workspaces: protocol, root, indexing progress, errors. */
export function SourceStatus({ initial, pollMs }: { initial: SourceInfo[]; pollMs?: number }) {
  const { sources } = useSources(initial, pollMs);
  const paused = indexingPaused(useJournalProblem(undefined, pollMs));
  return (
    <div className="flex min-w-0 flex-wrap items-center justify-end gap-x-3 gap-y-1 text-xs">
      {sources.length === 0 ? (
        <span className="text-amber-700 dark:text-amber-400">No workspace configured</span>
      ) : (
        sources.map((s) => <SourceChip key={s.id} source={s} paused={paused} />)
      )}
    </div>
  );
}

/** `paused`: the journal cannot be written (the banner says why), so indexing waits. */
function SourceChip({ source: s, paused }: { source: SourceInfo; paused: boolean }) {
  const indexing = !s.indexing.done;
  const state = s.error ? "error" : indexing ? (paused ? "paused" : "indexing") : "ok";
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5 text-zinc-600 dark:text-zinc-400" title={s.error ?? s.root}>
      <span
        aria-hidden
        className={cn(
          "size-2 shrink-0 rounded-full",
          state === "error" && "bg-red-500",
          state === "indexing" && "animate-pulse bg-amber-500",
          state === "paused" && "bg-amber-500",
          state === "ok" && "bg-emerald-500",
        )}
      />
      <span className="font-medium text-zinc-800 dark:text-zinc-200">{s.protocol}</span>
      <span className="max-w-64 truncate font-mono" dir="rtl">
        {/* rtl keeps the end of a long path visible; the bdi keeps the path itself in order */}
        <bdi>{s.root}</bdi>
      </span>
      {state === "error" ? (
        <span className="text-red-700 dark:text-red-400">unreadable</span>
      ) : indexing ? (
        <>
          <span>{paused ? "indexing paused" : "indexing"}</span>
          <IndexingProgress files={s.indexing.files} total={s.indexing.total} label={`Indexing ${s.protocol} workspace ${s.root}`} />
        </>
      ) : s.indexing.fullText === false ? (
        <span>building full-text search…</span>
      ) : (
        <span className="sr-only">indexed</span>
      )}
    </span>
  );
}
