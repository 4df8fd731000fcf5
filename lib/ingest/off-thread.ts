import "server-only";
import { buildFullText, fullTextReady, OFF_THREAD_CHUNK_ROWS } from "@/lib/journal/fulltext";
import type { Journal } from "@/lib/journal/store";
import type { Source } from "./sources";
import type { TreeDiff } from "./worker";
import { IngestWorkers } from "./workers";

// The whole-tree work the ingest service hands to a worker thread (service.ts): the full-text
// index's fill after a start's scan, and a big tree's comparison with the journal.

/**
 * The full-text index's one fill. A big tree's (`offThread`) chunks run on a worker thread: bigger
 * there (a quarter faster), while the main thread, which would stop for each, answers requests.
 * Each takes its turn (`inTurn`) with file events, which never write beside the worker (a
 * transaction that read first would fail at once, not wait); an action's history entry waits out
 * a chunk in SQLite's busy handler, as during a load, and the stuck sweep skips a tick
 * (unlessWriting). Worker threads are a speed-up, never a dependency: if that fails, the fill goes
 * on here. `onWorker` hears the worker while it fills (null after), for a stop to close it.
 */
export async function fillFullText(
  journal: Journal,
  opts: {
    offThread: boolean;
    pause: () => Promise<void>;
    inTurn: (job: () => Promise<void>) => Promise<void>;
    stopped: () => boolean;
    onWorker: (worker: IngestWorkers | null) => void;
  },
): Promise<void> {
  const { db, file } = journal;
  if (fullTextReady(db)) return;
  const worker = opts.offThread ? IngestWorkers.open(1) : null;
  if (worker) {
    opts.onWorker(worker);
    const fillChunk = async (from: number, to: number) => {
      const outcome: { error?: Error } = {};
      // Caught within its turn, which would log it as an ingest error: the fill says what failed.
      await opts.inTurn(() =>
        worker.fillFullText(file, from, to).catch((err: unknown) => {
          outcome.error = err instanceof Error ? err : new Error(String(err));
        }),
      );
      if (outcome.error) throw outcome.error;
    };
    try {
      return await buildFullText(db, opts.pause, OFF_THREAD_CHUNK_ROWS, fillChunk);
    } catch (err) {
      if (opts.stopped()) throw err;
      console.error("[mailroom] filling the full-text index on a worker thread failed; filling it on the main thread:", err);
    } finally {
      opts.onWorker(null);
      await worker.close();
    }
  }
  await buildFullText(db, opts.pause);
}

/**
 * Each source's differences from the journal, computed on a worker thread; null if that failed.
 * `watch` (a start's scan): each folder is watched just before the worker lists it, so a file
 * written meanwhile is in the listing or sends an event. A periodic rescan does not wait on the
 * main thread for each folder: nearly all are watched already, and one whose events were missed
 * is watched once the listing is back (the service's reconcile), its files then journaled from it.
 */
export async function compareOnWorker(
  all: readonly Source[],
  journalFile: string,
  stopped: () => boolean,
  watch?: (dir: string) => void,
): Promise<Map<string, TreeDiff> | null> {
  const worker = IngestWorkers.open(1);
  if (!worker) return null;
  try {
    const diffs = new Map<string, TreeDiff>();
    for (const s of all) if (s.reader && !stopped()) diffs.set(s.id, await worker.diff({ ...s, reader: s.reader }, journalFile, watch));
    return diffs;
  } catch (err) {
    console.error("[mailroom] comparing the tree on a worker thread failed; scanning it on the main thread:", err);
    return null;
  } finally {
    await worker.close();
  }
}
