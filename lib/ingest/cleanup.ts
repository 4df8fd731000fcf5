import "server-only";
import type { JournalWriter } from "@/lib/journal/writer";

// Telling a clean-up from agents finishing their work. Agents remove files one at a time as they
// finish (the queue monitor polls every 10 s), and delivered files stay in processed/, so most of a
// tree never goes at once; `ignite clean` (`rm -rf queue/*/`) or a wiped workspace takes all of it
// in one go. Deletions are judged per batch: one settle of vanished files (those gone for the 1 s
// grace, file-events.ts) or one rescan's missing files.

/** At least this many files gone in one batch… */
export const CLEANUP_MIN_FILES = 10;
/** …and at least this share of what the journal held on disk for the source. */
export const CLEANUP_SHARE = 0.8;

/** Whether `gone` of `present` files vanishing in one batch is a clean-up rather than agents' work. */
export function isCleanup(gone: number, present: number): boolean {
  return gone >= CLEANUP_MIN_FILES && present > 0 && gone >= CLEANUP_SHARE * present;
}

export type Sweep = { others: number; atMs: number } | undefined;

/** The clean-up a batch of `gone` journaled files is (call before marking any of them), or undefined. */
export function sweepOf(writer: JournalWriter, source: string, gone: number, atMs = Date.now()): Sweep {
  return isCleanup(gone, writer.countPresentFiles(source)) ? { others: gone - 1, atMs } : undefined;
}

/**
 * Journal one batch of deleted files of a source (call inside a transaction): each is completed
 * (or dead, …) as its own deletion, or, when the batch is a clean-up, cleared, its history saying
 * it went with the others. Returns how many journaled messages were marked gone.
 */
export function journalDeletions(writer: JournalWriter, source: string, relPaths: readonly string[]): number {
  const known = relPaths.filter((p) => writer.known(source, p) !== null);
  const sweep = sweepOf(writer, source, known.length);
  let gone = 0;
  for (const relPath of known) if (writer.markGone(source, relPath, sweep)) gone++;
  return gone;
}
