import "server-only";
import type { BulkLoad } from "@/lib/journal/bulk";
import type { FoundFile } from "@/lib/protocols";
import type { PreparedFile, ReadableSource } from "./sync";
import { FileWarmer, type WarmTally } from "./warm-files";
import { IngestWorkers } from "./workers";

// A first scan's bulk load on worker threads (see scanSource in scan.ts).

/**
 * Chunks whose files are read ahead (warm-files.ts) beyond the last one handed out: the four the
 * workers load at once and as many after them, so a worker does not wait on the disk.
 */
const READ_AHEAD_CHUNKS = 8;

/** What a load on workers leaves the main thread: the dead letters, and what was read ahead of it (null: nothing was). */
export interface LoadedOnWorkers {
  deadLetters: PreparedFile[];
  readAhead: WarmTally | null;
}

/**
 * A bulk load on worker threads: each loads whole chunks into the journal, a few chunks in flight
 * so none waits; no new chunk is handed out once `stopped()`. `onChunk`, this thread's writes
 * after each, takes the load's write turn (see IngestWorkers.inWriteTurn). The next chunks' files
 * are read ahead into the page cache meanwhile. Returns the dead letters found, in listing order,
 * for the writer, once every worker has ended (so none still writes).
 */
export async function loadOnWorkers(
  source: ReadableSource,
  chunks: { count: number; at: (i: number) => FoundFile[] },
  workers: IngestWorkers,
  bulk: BulkLoad,
  { stopped, onChunk }: { stopped: () => boolean; onChunk: (i: number, deadLetters: PreparedFile[]) => void },
): Promise<LoadedOnWorkers> {
  const deadLetters: PreparedFile[][] = [];
  const warmer = FileWarmer.start(source.root);
  let warmed = 0;
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < chunks.count && !stopped(); i = next++) {
      for (; warmer && warmed < Math.min(chunks.count, i + 1 + READ_AHEAD_CHUNKS); warmed++) void warmer.warm(chunks.at(warmed).map((f) => f.relPath));
      deadLetters[i] = (await workers.load(source, chunks.at(i), bulk.target())).deadLetters;
      await workers.inWriteTurn(() => onChunk(i, deadLetters[i] ?? []));
    }
  };
  try {
    await Promise.all(Array.from({ length: workers.size * 2 }, lane));
  } finally {
    await Promise.all([workers.close(), warmer?.close()]);
  }
  return { deadLetters: deadLetters.flat(), readAhead: warmer && { ...warmer.tally } };
}

/**
 * Worker threads for a first scan's load, started once the listing passes a quarter of `minFiles`:
 * they take 0.15-0.2 s to start cold, which the rest of the listing up to `minFiles` then hides
 * (started at `minFiles`, a million files' listing waited for them). A tree that stops short of
 * `minFiles` closes them unused, once per empty journal.
 */
export function workersForLoad(minFiles: number) {
  let listed = 0;
  let started: IngestWorkers | null | undefined; // undefined: not started (null: none to be had)
  return {
    onListed(files: number): void {
      listed += files;
      if (started === undefined && listed >= minFiles / 4) started = IngestWorkers.open();
    },
    /** The workers when the load will use them (started now if the listing did not); else none, and any started are closed. */
    async take(use: boolean): Promise<IngestWorkers | null> {
      if (!use) {
        await started?.close();
        return null;
      }
      if (started === undefined) started = IngestWorkers.open();
      return started;
    },
  };
}
