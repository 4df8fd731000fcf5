"use client";

import type { SourceInfo } from "@/lib/model";
import { useSources } from "@/lib/client/use-sources";
import { indexingPaused, useJournalProblem } from "@/lib/client/use-journal-problem";
import { IndexingProgress } from "./indexing-progress";
import { cn } from "./ui/cn";
import { countOf } from "@/lib/client/count";

/** The header's compact view of the workspaces: protocol, root, indexing progress, errors. */
export function SourceStatus({ initial, pollMs }: { initial: SourceInfo[]; pollMs?: number }) {
  const { sources } = useSources(initial, pollMs);
  const paused = indexingPaused(useJournalProblem(undefined, pollMs));
  return (
    <div className="flex min-w-0 flex-wrap items-center justify-end gap-x-3 gap-y-1 text-xs">
      {sources.length === 0 ? (
        <span className="text-amber-700 dark:text-amber-400">No workspace configured</span>
      ) : sources.length > INLINE_SOURCES ? (
        <SourceList sources={sources} paused={paused} />
      ) : (
        <>
          {/* A phone has no room for a chip's root beside the navigation: the summary there too. */}
          <div className="sm:hidden">
            <SourceList sources={sources} paused={paused} />
          </div>
          <div className="hidden sm:contents">
            {sources.map((s) => <SourceChip key={s.id} source={s} paused={paused} />)}
          </div>
        </>
      )}
    </div>
  );
}

/** More sources than this (a root per protocol, several roots) fold into a list, so the navigation keeps its room. */
const INLINE_SOURCES = 2;

function stateOf(s: SourceInfo, paused: boolean): "error" | "indexing" | "paused" | "ok" {
  return s.error ? "error" : !s.indexing.done ? (paused ? "paused" : "indexing") : "ok";
}

/** Many sources: one summary ("5 sources, 1 unreadable") that opens to every source's chip. */
function SourceList({ sources, paused }: { sources: SourceInfo[]; paused: boolean }) {
  const states = sources.map((s) => stateOf(s, paused));
  const errors = states.filter((st) => st === "error").length;
  const indexing = states.filter((st) => st === "indexing").length;
  // The journal cannot be written (the banner says why): indexing waits, it is not going on.
  const waiting = states.filter((st) => st === "paused").length;
  const worst = errors > 0 ? "error" : indexing > 0 ? "indexing" : waiting > 0 ? "paused" : "ok";
  const notes = [errors > 0 ? `${errors} unreadable` : null, indexing > 0 ? `${indexing} indexing` : null, waiting > 0 ? `${waiting} indexing paused` : null].filter(Boolean);
  return (
    <details className="relative">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
        <span
          aria-hidden
          className={cn("size-2 shrink-0 rounded-full", worst === "error" && "bg-red-500", worst === "indexing" && "animate-pulse bg-amber-500", worst === "paused" && "bg-amber-500", worst === "ok" && "bg-emerald-500")}
        />
        <span className="whitespace-nowrap font-medium">{countOf(sources.length, "source")}</span>
        {/* On a phone the dot's colour shows it, and the list it opens says which. */}
        {notes.length > 0 ? <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">· {notes.join(", ")}</span> : null}
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-max max-w-[min(36rem,90vw)] flex-col gap-2 rounded-md border border-zinc-200 bg-white p-3 shadow-lg dark:border-zinc-800 dark:bg-zinc-950">
        {sources.map((s) => <SourceChip key={s.id} source={s} paused={paused} />)}
      </div>
    </details>
  );
}

/** `paused`: the journal cannot be written (the banner says why), so indexing waits. */
function SourceChip({ source: s, paused }: { source: SourceInfo; paused: boolean }) {
  const indexing = !s.indexing.done;
  const state = stateOf(s, paused);
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
