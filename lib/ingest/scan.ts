import "server-only";
import type { JournalWriter } from "@/lib/journal/writer";
import type { Source } from "./sources";
import { syncFile, type SyncContext } from "./sync";

const PROGRESS_EVERY = 250;

/**
 * Reconcile a whole source with the journal: new and changed files are read, unchanged ones
 * cost one lstat, and journaled files that are no longer there become gone (after moves have
 * claimed theirs). The first scan of a big tree reports progress as it goes.
 */
export async function scanSource(
  source: Source & { reader: NonNullable<Source["reader"]> },
  writer: JournalWriter,
  opts: { reportProgress: boolean },
): Promise<{ files: number; gone: number }> {
  const found = await source.reader.list();
  const present = new Set(found.map((f) => f.relPath));
  const ctx: SyncContext = { source, writer, isPresent: async (p) => present.has(p) };
  writer.setAgents(source.id, await source.reader.agents());
  if (opts.reportProgress) writer.setProgress(source.id, 0, found.length, false);
  let done = 0;
  for (const f of found) {
    try {
      await syncFile(ctx, f);
    } catch (err) {
      // One unreadable file never stops the scan; the next pass tries it again.
      console.error(`[mailroom] could not ingest ${f.relPath}:`, err);
    }
    done++;
    if (opts.reportProgress && done % PROGRESS_EVERY === 0) writer.setProgress(source.id, done, found.length, false);
  }
  let gone = 0;
  writer.transaction(() => {
    for (const relPath of writer.presentFiles(source.id).keys()) {
      if (!present.has(relPath) && writer.markGone(source.id, relPath)) gone++;
    }
  });
  writer.setProgress(source.id, found.length, found.length, true);
  return { files: found.length, gone };
}
