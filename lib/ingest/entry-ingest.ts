import "server-only";
// Ingest for sources whose files hold many entries (IGNITE v2, shogun, workflow, KickLang): a scan
// compares each placed file's stat with how far it was read, reads what changed (an appended file
// from where the last read stopped) and journals the entries in batches, so that an entry moving
// from one file to another within a batch is one move. File events take the same path.
import { lstat } from "node:fs/promises";
import { EntryWriter, type DeletedFile, type EntryFileFacts, type EntryFileRead, type EntrySourceContext } from "@/lib/journal/entry-writer";
import type { Db } from "@/lib/journal/db";
import type { Protocol } from "@/lib/model";
import type { Layout, ProtocolReadSide, ReadContext } from "@/lib/protocols/layout";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { APPEND_CHUNK, listEntryFiles, logicalPath, readEntryFile, readTail, TAIL_BYTES, type EntrySourceFile } from "./entry-files";
import { EntryLoadFront, newestFilesFirst, oldestDateMs, type OrderedFile } from "./entry-order";
import { ReadAhead } from "./entry-read-ahead";

export interface EntrySource {
  id: string;
  protocol: Protocol;
  root: string;
  layout: Layout;
  side: ProtocolReadSide;
}

/**
 * Journaled per transaction at most: a first scan of 20,000 small files is a few commits, not
 * 20,000. Each holds the main thread (0.1-0.4 ms an entry): at 5,000 a commit was up to 2 s of it,
 * and 2,000 cost no more CPU over 20,000 entries of each protocol (noisy runs, a loaded machine).
 */
const BATCH_ENTRIES = 2_000;
const BATCH_BYTES = 16 * 1024 * 1024;
/** A scan's first commit is smaller, so its newest files (read first) are in soon; so is every commit of a start's first turn (see load). */
const FIRST_BATCH_ENTRIES = 1_000;
/**
 * A scan reads a channel this much at a time (each chunk's entries join the batch before it is
 * committed): ~900 values of ~300 bytes. Read in one 16 MB chunk (APPEND_CHUNK), a 2.9 MB
 * channel was one commit of 10,000 entries that held the main thread for 1.9 s.
 */
const SCAN_CHUNK_BYTES = 256 * 1024;

/** Entries per commit, and from what size a channel's tail is read first (tests make several commits of a small fixture with them). */
export interface BatchLimits {
  first: number;
  rest: number;
  tailBytes: number;
  /** How much of a channel a scan reads at a time (SCAN_CHUNK_BYTES). */
  chunkBytes?: number;
}

class Batch {
  /** Reads and files gone, by source: each source's are one transaction. */
  readonly sources = new Map<string, { source: EntrySource; reads: EntryFileRead[]; deleted: DeletedFile[] }>();
  private entries = 0;
  private bytes = 0;

  constructor(private readonly maxEntries: number) {}

  of(source: EntrySource) {
    let held = this.sources.get(source.id);
    if (!held) this.sources.set(source.id, (held = { source, reads: [], deleted: [] }));
    return held;
  }

  add(source: EntrySource, read: EntryFileRead): void {
    this.of(source).reads.push(read);
    this.entries += read.entries.length + read.problems.length;
    this.bytes += read.bytes.length;
  }

  get full(): boolean {
    return this.entries >= this.maxEntries || this.bytes >= BATCH_BYTES;
  }
}

/** A source's tree against the journal: every placed file, and what a scan has to read or forget. */
export interface EntryPlan {
  source: EntrySource;
  files: EntrySourceFile[];
  dirs: string[];
  changed: EntrySourceFile[];
  deleted: DeletedFile[];
  /** How far each file was read, as the journal said when the tree was listed. */
  known: ReadonlyMap<string, EntryFileFacts>;
}

/** After each commit of a load: how many of each source's changed files are in, and its claim (see EntryLoadFront). */
export type OnEntryCommit = (source: EntrySource, loaded: number, claimMs: number) => void;

export interface EntryScan {
  files: number;
  changed: number;
  dirs: string[];
  /** Every agent (inbox, queue, channel) a placed file names. */
  agents: string[];
}

export class EntryIngest {
  private readonly writer: EntryWriter;
  /** Sources whose first fill the last load left part-way, by its maxCommits (see load). */
  private readonly fillsUnderWay = new Set<string>();

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

  /** Bring the journal level with a source's whole tree. */
  async scan(source: EntrySource, pause: () => Promise<void> = async () => {}): Promise<EntryScan> {
    const plan = await this.plan(source);
    const entries = await this.load([plan], { pause });
    return { ...summaryOf(plan), changed: entries };
  }

  /** List a source's tree and compare it with what the journal read of it. */
  async plan(source: EntrySource): Promise<EntryPlan> {
    const { files, dirs } = await listEntryFiles(source.layout, source.side);
    const known = this.writer.files(source.id);
    const listed = new Set(files.map((f) => f.relPath));
    const changed = files.filter((f) => {
      const k = known.get(f.relPath);
      return !k || k.size !== f.size || Math.trunc(k.mtimeMs) !== Math.trunc(f.mtimeMs) || k.ino !== f.ino;
    });
    const deleted = [...known.keys()].filter((p) => !listed.has(p)).map((relPath): DeletedFile => ({ relPath, why: "deleted" }));
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
    const changedMessages = await this.journal(order, plans.flatMap((p) => p.deleted.map((d) => ({ source: p.source, d }))), known, {
      firstBatch: this.limits.first,
      restBatch: turn ? this.limits.first : this.limits.rest,
      chunkBytes: this.limits.chunkBytes ?? SCAN_CHUNK_BYTES,
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
    });
    // Cut short by maxCommits (not stopped: a stopped service loads no more): the next load goes on with these fills.
    if (cut() && !stopped()) for (const id of fills) this.fillsUnderWay.add(id);
    return changedMessages;
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
    const known = this.writer.files(source.id);
    const changed: EntrySourceFile[] = [];
    const deleted: DeletedFile[] = [];
    for (const { abs, relPath, place } of placed) {
      const st = await lstat(abs).catch(() => null);
      if (st?.isFile()) changed.push({ relPath, place, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      else if (!st && known.has(relPath)) deleted.push({ relPath, why: "deleted" });
    }
    if (changed.length + deleted.length > 0) {
      const noPause = { firstBatch: this.limits.rest, restBatch: this.limits.rest, chunkBytes: APPEND_CHUNK, pause: async () => {}, stopped: () => false, committed: () => {}, later: () => {}, firstFill: () => false };
      await this.journal(changed.map((file) => ({ source, file, newestMs: file.mtimeMs })), deleted.map((d) => ({ source, d })), new Map([[source.id, known]]), noPause);
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
    run: {
      firstBatch: number;
      restBatch: number;
      /** A channel is read this much at a time. */
      chunkBytes: number;
      pause: () => Promise<void>;
      stopped: () => boolean;
      committed: (files: number) => void;
      /** A part to read later (the rest of a file whose tail was read), placed after the first `after` parts. */
      later: (part: OrderedFile<EntrySource>, after: number) => void;
      /** Whether the source's batches take the first-fill path (see load). */
      firstFill: (source: EntrySource) => boolean;
    },
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
        total += this.writer.apply(this.contextOf(source), reads, gone, run.firstFill(source));
      }
      batch = new Batch(run.restBatch);
      committed = read;
      run.committed(committed);
      await run.pause();
    };
    const ahead = new ReadAhead(files);
    // `files` may grow as it is read (run.later).
    for (let i = 0; i < files.length; i++) {
      const part = files[i];
      if (!part) break;
      const { source, file } = part;
      if (run.stopped()) return total;
      const whole = ahead.take(i);
      if (part.tail) {
        await this.readTail(part, (read) => batch.add(source, read), run.later, i + 1);
        read++;
        if (batch.full) await flush();
        continue;
      }
      try {
        await readEntryFile(source.layout, source.side, file, known.get(source.id)?.get(file.relPath), this.context, async ({ read: entries, bytes, from, facts }, plan) => {
          if (plan.replaced && from === 0) batch.of(source).deleted.push({ relPath: file.relPath, why: "replaced" });
          const whole = !source.side.appendOnly(file.place);
          batch.add(source, { relPath: file.relPath, facts, entries: entries.entries, problems: entries.problems, bytes, from, whole });
          // Mid-file too: a 100 MB channel is journaled a chunk at a time, never held whole.
          if (batch.full) await flush();
        }, run.chunkBytes, whole);
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

  /**
   * A channel's newest part, to journal before the rest (see readTail), which is then placed in
   * the order by the oldest date the tail holds. Without a clean tail the rest is the whole file,
   * at the file's own time. Either way the rest is read from the file's start, as a file never read.
   */
  private async readTail(part: OrderedFile<EntrySource>, add: (read: EntryFileRead) => void, later: (rest: OrderedFile<EntrySource>, after: number) => void, after: number): Promise<void> {
    const { source, file } = part;
    const chunk = await readTail(source.layout, source.side, file, this.context, this.limits.tailBytes).catch((err: unknown) => {
      if (err instanceof RefusedFile) return null;
      throw err;
    });
    if (chunk) add({ relPath: file.relPath, facts: chunk.facts, entries: chunk.read.entries, problems: [], bytes: chunk.bytes, from: chunk.from, whole: false, tailOnly: true });
    const oldest = chunk ? oldestDateMs(chunk.read.entries) : null;
    later({ source, file, newestMs: Math.min(part.newestMs, oldest ?? Infinity) }, after);
  }

  private contextOf(source: EntrySource): EntrySourceContext {
    return { source: source.id, protocol: source.protocol, resolve: (e: Parameters<ProtocolReadSide["resolve"]>[0]) => source.side.resolve(e) };
  }
}

/** What a scan found of a source's tree (its `changed` count is the caller's to fill). */
export function summaryOf(plan: EntryPlan): EntryScan {
  const agents = [...new Set(plan.files.map((f) => f.place.agent).filter((a) => a !== ""))].sort();
  return { files: plan.files.length, changed: 0, dirs: plan.dirs, agents };
}
