import "server-only";
// Reading and journaling files on the main thread (a small tree's first scan, every rescan) in
// slices short enough that requests are answered in between, whatever the files hold.
import type { FoundFile } from "@/lib/protocols";
import { prepareFile, type PreparedFile, type ReadableSource } from "./sync";
import type { WarmAhead } from "./warm-ahead";

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The longest the main thread reads files before it lets requests in. A chunk of 2,000 ordinary
 * files reads in about 0.2 s, but one file may take up to ~0.1 s within PARSE_LIMITS (a hostile
 * one, measured) and an 8 MiB body ~0.65 s, so a chunk of big files would hold requests for seconds.
 */
const READ_SLICE_MS = 50;

/**
 * Bytes (kept file plus body text) journaled in one transaction on the main thread. SQLite wrote
 * the hostile bench's 75 MB chunk in 1.7 s (~23 ms a MB), holding every request meanwhile; 8 MiB
 * takes about 0.2 s, and a chunk of ordinary files stays one batch.
 */
const BATCH_BYTES = 8 * 1024 * 1024;

/** `prepared` in order, cut into batches of at most BATCH_BYTES (a bigger file alone); always at least one batch. */
export function byteBatches(prepared: PreparedFile[]): PreparedFile[][] {
  const batches: PreparedFile[][] = [[]];
  let bytes = 0;
  for (const p of prepared) {
    const size = (p.record.raw?.length ?? 0) + p.record.parsed.body.length + (p.original?.raw?.length ?? 0);
    const current = batches[batches.length - 1] ?? [];
    if (current.length > 0 && bytes + size > BATCH_BYTES) {
      batches.push([p]);
      bytes = size;
    } else {
      current.push(p);
      bytes += size;
    }
  }
  return batches;
}

/**
 * Read and parse `files`. `warm`: the load's files in its order, warmed ahead from a cold disk
 * (warm-ahead.ts), of which `files` start at `from`.
 */
export async function prepareHere(source: ReadableSource, files: FoundFile[], warm?: { ahead: WarmAhead<FoundFile>; from: number }): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = [];
  let sliceStart = performance.now();
  for (const [i, f] of files.entries()) {
    if (performance.now() - sliceStart > READ_SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    try {
      const p = await (warm ? warm.ahead.around(warm.from + i, () => prepareFile(source, f)) : prepareFile(source, f));
      if (p) prepared.push(p);
    } catch (err) {
      // One unreadable file never stops the scan; the next pass tries it again.
      console.error(`[mailroom] could not read ${f.relPath}:`, err);
    }
  }
  return prepared;
}
