import "server-only";
import type { JournalWriter } from "@/lib/journal/writer";
import { commitFile, prepareFile, type PreparedFile, type ReadableSource, type SyncContext } from "./sync";

/** Files journaled per transaction (fewer commits rewrite fewer index pages); between chunks the event loop serves requests. */
const CHUNK = 2000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reconcile a whole source with the journal: new and changed files are read, unchanged ones
 * cost one lstat, and journaled files that are no longer there become gone (after moves have
 * claimed theirs). The first scan of a big tree reports progress as it goes.
 */
export async function scanSource(source: ReadableSource, writer: JournalWriter, opts: { reportProgress: boolean }): Promise<{ files: number; gone: number }> {
  const known = writer.presentFiles(source.id);
  // Nothing journaled yet: every file will be read, and the read's fstat gives its facts.
  const found = await source.reader.list({ stat: known.size > 0 });
  const present = new Set(found.map((f) => f.relPath));
  const ctx: SyncContext = { source, writer, isPresent: (p) => present.has(p) };
  writer.setAgents(source.id, await source.reader.agents());
  if (opts.reportProgress) writer.setProgress(source.id, 0, found.length, false);
  // An empty journal loads in bulk; dead letters link to other messages, so they follow the load.
  const bulk = known.size === 0 ? writer.beginBulkLoad() : null;
  const afterLoad: PreparedFile[] = [];

  for (let start = 0; start < found.length; start += CHUNK) {
    const prepared: PreparedFile[] = [];
    for (const f of found.slice(start, start + CHUNK)) {
      const k = known.get(f.relPath);
      if (k && k.mtimeMs === f.mtimeMs && k.size === f.size && k.ino === f.ino) continue;
      try {
        const p = await prepareFile(source, f);
        if (p) prepared.push(p);
      } catch (err) {
        // One unreadable file never stops the scan; the next pass tries it again.
        console.error(`[mailroom] could not read ${f.relPath}:`, err);
      }
    }
    writer.transaction(() => {
      for (const p of prepared) {
        if (!bulk) commitFile(ctx, p);
        else if (p.record.parsed.deadLetter) afterLoad.push(p);
        else bulk.add(p.record);
      }
      bulk?.commitChunk();
    });
    if (opts.reportProgress) writer.setProgress(source.id, Math.min(start + CHUNK, found.length), found.length, false);
    await yieldToEventLoop();
  }

  if (bulk) {
    bulk.finish(source.id);
    writer.transaction(() => {
      for (const p of afterLoad) commitFile(ctx, p);
    });
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
