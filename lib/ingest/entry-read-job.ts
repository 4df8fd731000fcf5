import "server-only";
// A worker thread's side of reading a load's entry files ahead (see entry-read-ahead.ts): each
// file read exactly as the main thread's load reads one it never read, through the same safe open.
import { readSideFor } from "@/lib/protocols";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { readEntryFile, type FileChunk, type ReadPlan } from "./entry-files";
import type { FileReadAhead, ReadEntriesJob, ReadEntriesResult } from "./worker-jobs";

export async function readEntriesAhead(job: ReadEntriesJob): Promise<ReadEntriesResult> {
  const read: FileReadAhead[] = [];
  for (const { layout: at, file } of job.files) {
    const layout = job.layouts[at];
    const side = readSideFor(layout?.protocol);
    if (!layout || !side) return { id: job.id, error: `no read side for layout ${at}` };
    const chunks: { chunk: FileChunk; plan: ReadPlan }[] = [];
    let held = 0;
    try {
      await readEntryFile(layout, side, file, undefined, job.context, async (chunk, plan) => {
        held += chunk.bytes.length;
        // Grown past what is read ahead since it was listed: never held whole here (a channel of 100 MB).
        if (held > job.maxBytes) throw new Error(`${file.relPath} grew past ${job.maxBytes} bytes`);
        chunks.push({ chunk, plan });
      }, job.chunkBytes);
      read.push({ chunks });
    } catch (err) {
      read.push(err instanceof RefusedFile ? { refused: true } : { failed: err instanceof Error ? err.message : String(err) });
    }
  }
  return { id: job.id, read };
}
