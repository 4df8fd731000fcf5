import "server-only";
// Ingest for sources whose files hold many entries (IGNITE v2, shogun, workflow, KickLang): a scan
// compares each placed file's stat with how far it was read, reads what changed (an appended file
// from where the last read stopped) and journals the entries in batches, so that an entry moving
// from one file to another within a batch is one move. File events take the same path.
import { lstat } from "node:fs/promises";
import { EntryWriter, type DeletedFile, type EntryFileFacts } from "@/lib/journal/entry-writer";
import type { Db } from "@/lib/journal/db";
import type { ReadContext } from "@/lib/protocols/layout";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { APPEND_CHUNK, listEntryFiles, logicalPath, TAIL_BYTES, type EntrySourceFile } from "./entry-files";
import { EntryReadAhead } from "./entry-read-ahead";
import { EntryLoadFront, newestFilesFirst, type OrderedFile } from "./entry-order";
import { ReadOfFile } from "./read-of-file";
import { yieldToEventLoop } from "./main-thread";
import { Batch, BATCH_ENTRIES, FIRST_BATCH_ENTRIES, SCAN_CHUNK_BYTES, type BatchLimits, type JournalRun } from "./entry-batch";
import { contextOf, readByThisReader, summaryOf, type EntryPlan, type EntryScan, type EntrySource, type OnEntryCommit } from "./entry-plan";

export type { BatchLimits } from "./entry-batch";
export { summaryOf, type EntryPlan, type EntryScan, type EntrySource, type OnEntryCommit } from "./entry-plan";

/** A load's reading stretch without a turn of the event loop, at most (see journal). */
const YIELD_AFTER_MS = 20;

export class EntryIngest {
  private readonly writer: EntryWriter;
  /** Sources whose first fill the last load left part-way, by its maxCommits (see load). */
  private readonly fillsUnderWay = new Set<string>();
  /**
   * Sources whose problems about absent entries a load held back, to settle when a load ends (see
   * EntryWriter.apply); at start every source, as a load this process did not end may have held some.
   */
  private readonly heldAbsent = new Set<string>();
  private everyHeld = true;
  /** Loads under way: file events journaled meanwhile hold problems about absent entries back too. */
  private loading = 0;

  constructor(
    db: Db,
    now: () => number = Date.now,
    /** The settings every read is given (due times, timeouts); each protocol uses the ones it has. */
    private readonly context: ReadContext = {},
    private readonly limits: BatchLimits = { first: FIRST_BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: TAIL_BYTES },
    /** Take the first-fill path for a source the journal holds nothing of (tests compare it with the other). */
    private readonly firstFills = true,
  ) {
    this.writer = new EntryWriter(db, now);
  }

  /** Sources whose first fill the last load left part-way: a lane goes on with them (entry-lanes.ts). */
  fillsLeft(): string[] {
    return [...this.fillsUnderWay];
  }

  /** Go on with these sources' first fills, left part-way by another EntryIngest (a lane starts from a copy of its rows). */
  goOnWithFills(sources: Iterable<string>): void {
    for (const id of sources) this.fillsUnderWay.add(id);
  }

  /** Bring the journal level with a source's whole tree. */
  async scan(source: EntrySource, pause: () => Promise<void> = async () => {}): Promise<EntryScan> {
    const plan = await this.plan(source, undefined, pause);
    const entries = await this.load([plan], { pause });
    return { ...summaryOf(plan), changed: entries };
  }

  /**
   * List a source's tree (or take `listed`, a listing made for this scan) and compare it with what
   * the journal read of it, read a page at a time with `pause()` between (a turn of the event loop).
   */
  async plan(source: EntrySource, listed?: Pick<EntryPlan, "files" | "dirs">, pause: () => Promise<void> = yieldToEventLoop): Promise<EntryPlan> {
    const { files, dirs } = listed ?? (await listEntryFiles(source.layout, source.side));
    const journaled = await this.writer.files(source.id, pause);
    const known = readByThisReader(source, journaled);
    const present = new Set(files.map((f) => f.relPath));
    const changed = files.filter((f) => {
      const k = known.get(f.relPath);
      return !k || k.size !== f.size || Math.trunc(k.mtimeMs) !== Math.trunc(f.mtimeMs) || k.ino !== f.ino;
    });
    const deleted = [...journaled.keys()].filter((p) => !present.has(p)).map((relPath): DeletedFile => ({ relPath, why: "deleted" }));
    return { source, files, dirs, changed, deleted, known };
  }

  /**
   * Journal what the plans found changed, every source's files in one order, newest first (see
   * entry-order.ts), a commit at a time; `onCommit` hears how far each source is after each. Ends
   * early, between commits, once `stopped()`: what is committed stays, and the next scan reads the
   * rest (a file read in part goes on from where its last committed read stopped). Returns the
   * messages changed.
   */
  async load(
    plans: readonly EntryPlan[],
    opts: {
      pause: () => Promise<void>;
      stopped?: () => boolean;
      onCommit?: OnEntryCommit;
      /** A first turn (see EntrySources.scanAll): small commits, ended after `maxCommits` or once `enough` holds of the weakest claim. */
      maxCommits?: number;
      enough?: (weakestClaimMs: number) => boolean;
    },
  ): Promise<number> {
    const known = new Map(plans.map((p) => [p.source.id, p.known]));
    // A channel never read before, big enough: its newest part first (see readTail).
    const tailFirst = (source: EntrySource, file: EntrySourceFile) => source.side.appendOnly(file.place) && !known.get(source.id)?.has(file.relPath) && file.size > this.limits.tailBytes;
    const order = newestFilesFirst(plans.filter((p) => p.changed.length > 0).map((p) => ({ source: p.source, files: p.changed })), tailFirst);
    // A source the journal holds nothing of is a first fill (EntryWriter.apply). A channel's tail
    // read first is met again from its start at the same places, found by the lookup a fill keeps
    // (a KickLang first scan took the general path for it: 5.3 s of its entries' 14.5 s, 100,000 mixed).
    // So is one whose fill a load before this one left part-way (a start's first turn, see
    // EntrySources.scanAll): what it committed is the fill's own, and nothing has written since.
    const fills = new Set(
      plans
        .filter((p) => this.firstFills && ((this.fillsUnderWay.has(p.source.id) && p.deleted.length === 0) || (p.known.size === 0 && this.writer.isEmpty(p.source.id))))
        .map((p) => p.source.id),
    );
    this.fillsUnderWay.clear();
    const front = new EntryLoadFront(order);
    const report = () => {
      for (const p of plans) opts.onCommit?.(p.source, front.loaded(p.source.id), front.claimMs(p.source.id));
    };
    // At once: a claim left by a load that did not end (a crash) is not this one's.
    report();
    let commits = 0;
    let enough = false;
    const stopped = opts.stopped ?? (() => false);
    const turn = opts.maxCommits !== undefined || opts.enough !== undefined;
    const cut = () => enough || commits >= (opts.maxCommits ?? Infinity);
    this.loading++;
    const chunkBytes = this.limits.chunkBytes ?? SCAN_CHUNK_BYTES;
    // A start's first turn reads a few newest files: a worker would only start as it ends.
    const reads = turn
      ? EntryReadAhead.inline(order, this.context, chunkBytes)
      : EntryReadAhead.open(order, (p) => !known.get(p.source.id)?.has(p.file.relPath), this.context, chunkBytes, this.limits.readAheadFiles, this.limits.warmAhead);
    const changedMessages = await this.journal(order, plans.flatMap((p) => p.deleted.map((d) => ({ source: p.source, d }))), known, {
      firstBatch: this.limits.first,
      restBatch: turn ? this.limits.first : this.limits.rest,
      reads,
      pause: opts.pause,
      stopped: () => stopped() || cut(),
      committed: (files) => {
        commits++;
        front.commitThrough(files);
        report();
        enough = opts.enough?.(Math.max(...plans.map((p) => front.claimMs(p.source.id)))) ?? false;
      },
      later: (part, after) => front.insert(part, after),
      firstFill: (source) => fills.has(source.id),
      holdAbsent: true,
    }).finally(() => {
      this.loading--;
      void reads.close();
    });
    // Cut short by maxCommits (not stopped: a stopped service loads no more): the next load goes on with these fills.
    if (cut() && !stopped()) for (const id of fills) this.fillsUnderWay.add(id);
    else if (!stopped()) await this.settleHeld(plans.map((p) => p.source), opts.pause);
    return changedMessages;
  }

  /** Settle the problems about absent entries that loads held back, now that everything is read (see EntryWriter.apply). */
  private async settleHeld(sources: readonly EntrySource[], pause: () => Promise<void>): Promise<void> {
    for (const source of sources) {
      if (!this.everyHeld && !this.heldAbsent.has(source.id)) continue;
      for await (const ids of this.writer.namingAbsent(source.id, BATCH_ENTRIES, pause)) this.writer.settleAbsent(contextOf(source), ids);
      this.heldAbsent.delete(source.id);
    }
    this.everyHeld = false;
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
    // Written by another way than the fill: the next load is not its continuation.
    this.fillsUnderWay.delete(source.id);
    const journaled = this.writer.filesAt(source.id, placed.map((p) => p.relPath));
    const known = readByThisReader(source, journaled);
    const changed: EntrySourceFile[] = [];
    const deleted: DeletedFile[] = [];
    for (const { abs, relPath, place } of placed) {
      const st = await lstat(abs).catch(() => null);
      if (st?.isFile()) changed.push({ relPath, place, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      else if (!st && journaled.has(relPath)) deleted.push({ relPath, why: "deleted" });
    }
    if (changed.length + deleted.length > 0) {
      const parts = changed.map((file) => ({ source, file, newestMs: file.mtimeMs }));
      const noPause = {
        firstBatch: this.limits.rest, restBatch: this.limits.rest, reads: EntryReadAhead.inline(parts, this.context, APPEND_CHUNK), pause: async () => {}, stopped: () => false,
        committed: () => {}, later: () => {}, firstFill: () => false, holdAbsent: this.loading > 0,
      };
      await this.journal(parts, deleted.map((d) => ({ source, d })), new Map([[source.id, known]]), noPause);
    }
    return true;
  }

  /** Overdue entries become stuck (the ingest timer calls this every second). */
  sweepDue(): number {
    return this.writer.sweepDue();
  }

  /**
   * Read `files` in their order and journal them a batch at a time (each source's part of a batch
   * its own transaction). `committed(n)` after each commit: the first n files are in whole. `known`:
   * how far each file was read, by source, as the caller just read it from the journal.
   */
  private async journal(
    files: readonly OrderedFile<EntrySource>[],
    deleted: readonly { source: EntrySource; d: DeletedFile }[],
    known: ReadonlyMap<string, ReadonlyMap<string, EntryFileFacts>>,
    run: JournalRun,
  ): Promise<number> {
    let batch = new Batch(run.firstBatch);
    for (const { source, d } of deleted) batch.of(source).deleted.push(d);
    let total = 0;
    // Files read whole so far, and how many of them are committed.
    let read = 0;
    let committed = 0;
    const flush = async () => {
      const held = [...batch.sources.values()];
      for (const [i, { source, reads, deleted: gone }] of held.entries()) {
        // Each source's part its own turn of the event loop, not one stretch for every source's.
        if (i > 0) await run.pause();
        total += this.writer.apply(contextOf(source), reads, gone, { firstFill: run.firstFill(source), holdAbsent: run.holdAbsent });
        // Only then is there anything to settle when the load ends: looking for it reads every reference of the
        // source (50 ms at 70,000 envelopes), and a periodic rescan of a channel appended to loads its new part.
        if (this.writer.takeHeld(source.id)) this.heldAbsent.add(source.id);
      }
      batch = new Batch(run.restBatch);
      committed = read;
      run.committed(committed);
      await run.pause();
    };
    // `files` may grow as it is read (run.later).
    let turnStarted = performance.now();
    for (let i = 0; i < files.length; i++) {
      const part = files[i];
      if (!part) break;
      const { source, file } = part;
      // Files read whole are read synchronously (readWhole): requests are served between them
      // every few ms, not only at a commit (a batch of 1,000 files is read and parsed in one go else).
      if (performance.now() - turnStarted > YIELD_AFTER_MS) {
        await run.pause();
        turnStarted = performance.now();
      }
      if (run.stopped()) return total;
      // What is read so far is committed before a channel's rest, whose oldest entries come first: a
      // start's first turn can end there (its 256 KB chunk of old entries made the mixed tree's first
      // commit twice as big, and the newest page was in only with it).
      if (part.rest && batch.sources.size > 0) {
        await flush();
        if (run.stopped()) return total;
      }
      if (part.tail) {
        const { tail, rest } = await run.reads.tail(i, this.limits.tailBytes);
        if (tail) batch.add(source, tail);
        run.later(rest, i + 1);
        read++;
        if (batch.full) await flush();
        continue;
      }
      const thisRead = new ReadOfFile();
      try {
        await run.reads.read(i, known.get(source.id)?.get(file.relPath), async ({ read: entries, bytes, from, facts }, plan) => {
          const whole = !source.side.appendOnly(file.place);
          batch.add(source, {
            relPath: file.relPath, facts: thisRead.factsOf(facts, plan.replaced), entries: thisRead.take(entries, from), problems: entries.problems,
            bytes, from, whole, readFrom: plan.from, unparsed: entries.unparsed,
          });
          // Mid-file too: a 100 MB channel is journaled a chunk at a time, never held whole.
          if (batch.full) await flush();
        });
        const replaced = thisRead.replaced(file.relPath);
        if (replaced) batch.of(source).deleted.push(replaced);
      } catch (err) {
        // Gone or swapped for something Mailroom will not read since it was listed: the next event or scan sees what is there.
        if (!(err instanceof RefusedFile)) throw err;
      }
      read++;
      // Its last read was committed mid-file (nothing held since): it is in whole now.
      if (batch.sources.size === 0 && committed < read) {
        committed = read;
        run.committed(committed);
      }
    }
    await flush();
    return total;
  }
}
