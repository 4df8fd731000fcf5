import "server-only";
// Ingest for sources whose files hold many entries (IGNITE v2, shogun, workflow, KickLang): a scan
// compares each placed file's stat with how far it was read, reads what changed (an appended file
// from where the last read stopped) and journals the entries in batches, so that an entry moving
// from one file to another within a batch is one move. File events take the same path.
import { lstat } from "node:fs/promises";
import { EntryWriter, type DeletedFile, type EntryFileFacts, type EntryFileRead } from "@/lib/journal/entry-writer";
import type { Db } from "@/lib/journal/db";
import type { Protocol } from "@/lib/model";
import type { Layout, ProtocolReadSide, ReadContext } from "@/lib/protocols/layout";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import { listEntryFiles, logicalPath, readEntryFile, type EntrySourceFile, type FileChunk, type ReadPlan } from "./entry-files";
import { ReadAhead } from "./read-ahead";

export interface EntrySource {
  id: string;
  protocol: Protocol;
  root: string;
  layout: Layout;
  side: ProtocolReadSide;
}

/** Journaled per transaction at most: a first scan of 20,000 small files is a few commits, not 20,000. */
const BATCH_ENTRIES = 5_000;
const BATCH_BYTES = 16 * 1024 * 1024;

class Batch {
  reads: EntryFileRead[] = [];
  deleted: DeletedFile[] = [];
  private entries = 0;
  private bytes = 0;

  add(read: EntryFileRead): void {
    this.reads.push(read);
    this.entries += read.entries.length + read.problems.length;
    this.bytes += read.bytes.length;
  }

  get full(): boolean {
    return this.entries >= BATCH_ENTRIES || this.bytes >= BATCH_BYTES;
  }
}

export interface EntryScan {
  files: number;
  changed: number;
  dirs: string[];
  /** Every agent (inbox, queue, channel) a placed file names. */
  agents: string[];
}

export class EntryIngest {
  private readonly writer: EntryWriter;

  constructor(
    db: Db,
    now: () => number = Date.now,
    /** The settings every read is given (due times, timeouts); each protocol uses the ones it has. */
    private readonly context: ReadContext = {},
    /** Take the first-fill path for a source the journal holds nothing of (tests compare it with the other). */
    private readonly firstFills = true,
  ) {
    this.writer = new EntryWriter(db, now);
  }

  /** Bring the journal level with a source's whole tree. */
  async scan(source: EntrySource, pause: () => Promise<void> = async () => {}): Promise<EntryScan> {
    const { files, dirs } = await listEntryFiles(source.layout, source.side);
    const known = this.writer.files(source.id);
    const listed = new Set(files.map((f) => f.relPath));
    const changed = files.filter((f) => {
      const k = known.get(f.relPath);
      return !k || k.size !== f.size || Math.trunc(k.mtimeMs) !== Math.trunc(f.mtimeMs) || k.ino !== f.ino;
    });
    const deleted = [...known.keys()].filter((p) => !listed.has(p)).map((relPath): DeletedFile => ({ relPath, why: "deleted" }));
    const firstFill = this.firstFills && known.size === 0 && this.writer.isEmpty(source.id);
    const entries = await this.journal(source, changed, deleted, known, pause, firstFill);
    const agents = [...new Set(files.map((f) => f.place.agent).filter((a) => a !== ""))].sort();
    return { files: files.length, changed: entries, dirs, agents };
  }

  /** Look at these absolute paths now (file events); returns whether any belonged to the source. */
  async applyPaths(source: EntrySource, absPaths: readonly string[]): Promise<boolean> {
    const placed = [...new Set(absPaths)].flatMap((abs) => {
      const relPath = logicalPath(source.layout, abs);
      const place = relPath ? source.side.place(relPath) : null;
      return relPath && place ? [{ abs, relPath, place }] : [];
    });
    // Most events belong to one source of several: the others read nothing of the journal.
    if (placed.length === 0) return false;
    const known = this.writer.files(source.id);
    const changed: EntrySourceFile[] = [];
    const deleted: DeletedFile[] = [];
    for (const { abs, relPath, place } of placed) {
      const st = await lstat(abs).catch(() => null);
      if (st?.isFile()) changed.push({ relPath, place, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      else if (!st && known.has(relPath)) deleted.push({ relPath, why: "deleted" });
    }
    if (changed.length + deleted.length > 0) await this.journal(source, changed, deleted, known, async () => {});
    return true;
  }

  /** Overdue entries become stuck (the ingest timer calls this every second). */
  sweepDue(): number {
    return this.writer.sweepDue();
  }

  /** `known`: how far each file was read, as the caller just read it from the journal. */
  private async journal(
    source: EntrySource,
    changed: readonly EntrySourceFile[],
    deleted: DeletedFile[],
    known: ReadonlyMap<string, EntryFileFacts>,
    pause: () => Promise<void>,
    firstFill = false,
  ): Promise<number> {
    const ctx = { source: source.id, protocol: source.protocol, resolve: (e: Parameters<ProtocolReadSide["resolve"]>[0]) => source.side.resolve(e) };
    let batch = new Batch();
    batch.deleted.push(...deleted);
    let total = 0;
    const flush = async () => {
      total += this.writer.apply(ctx, batch.reads, batch.deleted, firstFill);
      batch = new Batch();
      await pause();
    };
    const readFile = (file: EntrySourceFile, onChunk: (chunk: FileChunk, plan: ReadPlan) => Promise<void>) =>
      readEntryFile(source.layout, source.side, file, known.get(file.relPath), this.context, onChunk);
    // A first fill reads small whole files ahead (read-ahead.ts); a channel is read a chunk at a time, in place.
    const ahead = firstFill ? new ReadAhead<EntrySourceFile, [FileChunk, ReadPlan]>(changed, (f) => !source.side.appendOnly(f.place) && f.size <= MAX_FILE_BYTES, (f, onChunk) => readFile(f, (c, p) => onChunk([c, p]))) : null;
    for (const [i, file] of changed.entries()) {
      const onChunk = async ({ read, bytes, from, facts }: FileChunk, plan: ReadPlan) => {
        if (plan.replaced && from === 0) batch.deleted.push({ relPath: file.relPath, why: "replaced" });
        const whole = !source.side.appendOnly(file.place);
        batch.add({ relPath: file.relPath, facts, entries: read.entries, problems: read.problems, bytes, from, whole });
        // Mid-file too: a 100 MB channel is journaled a chunk at a time, never held whole.
        if (batch.full) await flush();
      };
      try {
        const early = ahead?.take(i);
        if (!early) await readFile(file, onChunk);
        else {
          const outcome = await early;
          if ("error" in outcome) throw outcome.error;
          for (const [chunk, plan] of outcome.chunks) await onChunk(chunk, plan);
        }
      } catch (err) {
        // Gone or swapped for something Mailroom will not read since it was listed: the next event or scan sees what is there.
        if (!(err instanceof RefusedFile)) throw err;
        continue;
      }
    }
    await flush();
    return total;
  }
}
