import "server-only";
// A worker thread of the first scan: reads and parses files (most of a scan's CPU) while the main
// thread writes the journal and answers requests. See read-pool.ts.
import { parentPort } from "node:worker_threads";
import type { Protocol } from "@/lib/model";
import { adapterFor, type FoundFile, type SourceReader } from "@/lib/protocols";
import { prepareFile, type PreparedFile } from "./sync";

export interface ReadJob {
  id: number;
  source: { id: string; protocol: Protocol; root: string };
  files: FoundFile[];
}

export type ReadResult = { id: number; prepared: PreparedFile[]; failed: { relPath: string; error: string }[] } | { id: number; error: string };

const readers = new Map<string, Promise<SourceReader | null>>();

function readerFor(protocol: Protocol, root: string): Promise<SourceReader | null> {
  const key = `${protocol}\0${root}`;
  let reader = readers.get(key);
  if (!reader) {
    reader = adapterFor(protocol)?.open(root) ?? Promise.resolve(null);
    readers.set(key, reader);
  }
  return reader;
}

async function run(job: ReadJob): Promise<ReadResult> {
  const reader = await readerFor(job.source.protocol, job.source.root);
  if (!reader) return { id: job.id, error: `no ${job.source.protocol} workspace at ${job.source.root} any more` };
  const source = { ...job.source, reader, error: null };
  const prepared: PreparedFile[] = [];
  const failed: { relPath: string; error: string }[] = [];
  for (const file of job.files) {
    try {
      const p = await prepareFile(source, file);
      if (p) prepared.push(p);
    } catch (err) {
      failed.push({ relPath: file.relPath, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { id: job.id, prepared, failed };
}

parentPort?.on("message", (job: ReadJob) => {
  run(job).then(
    (result) => parentPort?.postMessage(result),
    (err: unknown) => parentPort?.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
