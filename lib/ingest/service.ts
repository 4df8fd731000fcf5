import "server-only";
import type { Config } from "@/lib/server/config";
import type { Journal } from "@/lib/journal/store";
import { isTransientFault, JOURNAL_RETRY_MS, journalFaultKind, reportJournalFault } from "@/lib/journal/faults";
import { unlessWriting } from "@/lib/journal/db";
import { querySources } from "@/lib/journal/queries";
import { PRUNE_BATCH } from "@/lib/journal/writer";
import { clearStaleTempFiles } from "@/lib/operations/temp-files";
import { discoverSources, type Source } from "./sources";
import { describeLoad, scanSource, UnfinishedLoadError } from "./scan";
import { absolute } from "./read";
import { IngestWorkers } from "./workers";
import type { TreeDiff } from "./worker";
import type { ReadableSource } from "./sync";
import { releaseScanMemory } from "./release-memory";
import { DirWatcher, listDirs } from "./watch";
import { FileEvents } from "./file-events";
import { JournalRecovery } from "./journal-retry";
import { listSource, type SourceListing } from "./listing";
import { SourceProblems } from "./source-problems";
import { StuckTimeout } from "./stuck-timeout";
import { compareOnWorker, fillFullText } from "./off-thread";
import { EntrySources } from "./entry-sources";

const STUCK_CHECK_MS = 1000;
/** A periodic rescan waits at least this many times its own duration before the next. */
const RESCAN_COST_FACTOR = 20;
/** Rescans slower than this are logged: the tree is big enough that an operator may want to know. */
const SLOW_RESCAN_MS = 2000;
/** From this many files the tree is compared with the journal, and the full-text index filled after a start's scan, on a worker thread. */
const BIG_TREE_FILES = 20_000;

/** The pause before the next periodic rescan: the setting, or longer when rescans are slow (a big tree). */
export function nextRescanDelay(rescanMs: number, lastRescanMs: number): number {
  return Math.max(rescanMs, Math.round(RESCAN_COST_FACTOR * lastRescanMs));
}

/** Keeps the journal in step with the tree: a first full scan, then watch events plus periodic rescans. */
export class IngestService {
  private sources: ReadableSource[] = [];
  private adopted: Source[] = [];
  private readonly watcher = new DirWatcher((paths) => void this.serial(async () => {
    await this.events.apply(paths);
    await this.entrySources.apply(paths);
  }));
  private readonly events: FileEvents;
  private timers: NodeJS.Timeout[] = [];
  private fullTextWorker: IngestWorkers | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Files in the tree at the last scan: decides where the next periodic rescan runs. */
  private treeFiles = 0;
  private readonly recovery: JournalRecovery;
  private readonly problems: SourceProblems;
  private recheckQueued = false;
  private readonly stuckTimeout: StuckTimeout;
  /** Sources whose files hold many entries (wave 2), beside the one-message-per-file sources above. */
  private readonly entrySources: EntrySources;
  private listingStarted: () => void = () => undefined;
  /**
   * Resolves once the first scan's listing is under way: on worker threads for a big tree, done
   * here for a small one, or not needed (every source journaled before, or the scan ended). The
   * server's start waits for it (startIngestOrExit).
   */
  readonly firstListing = new Promise<void>((resolve) => {
    this.listingStarted = resolve;
  });

  constructor(
    private readonly config: Config,
    private readonly journal: Journal,
    /** From how many files the tree is compared with the journal, and the full-text index filled, on a worker thread (tests lower it). */
    private readonly offThreadFiles = BIG_TREE_FILES,
    /** The pause between tries of a journal that cannot be written (tests shorten it). */
    private readonly retryMs = JOURNAL_RETRY_MS,
  ) {
    this.events = new FileEvents({
      get writer() {
        return journal.writer;
      },
      watcher: this.watcher,
      sources: () => this.sources,
      serial: (job) => this.serial(job),
      stopped: () => this.stopped,
      folderChanged: (source) => this.recheckUnreadable(source),
    });
    this.problems = new SourceProblems(() => journal.writer);
    this.entrySources = new EntrySources(journal, {
      ackDueMs: config.ackDueMs,
      ...(config.stuckAfterSet ? { processingTimeoutMs: config.stuckAfterMs } : {}),
    });
    this.stuckTimeout = new StuckTimeout(config);
    this.recovery = new JournalRecovery({
      journal,
      serial: (job) => this.serial(job),
      rescan: (first) => this.rescan(first),
      fillFullText: () => this.fillFullText(this.pause),
      stopped: () => this.stopped,
      retryMs,
    });
  }

  /**
   * A folder of a source with unreadable folders changed itself (a chmod, say): scanned again now,
   * so a folder readable again is taken up at once, not at the next periodic rescan. One at a time.
   */
  private recheckUnreadable(source: ReadableSource): void {
    if (!this.problems.hasUnreadable(source.id) || this.recheckQueued) return;
    this.recheckQueued = true;
    void this.serial(async () => {
      this.recheckQueued = false;
      await this.rescan(false);
    });
  }

  /** Between the full-text fill's chunks: the event loop serves requests; stopping ends the fill. */
  private readonly pause = () => (this.stopped ? Promise.reject(new Error("ingest stopped")) : new Promise<void>((r) => setImmediate(r)));

  /** Run one job at a time: scans and event batches never interleave their writes. Nothing runs after stop(). */
  private serial(job: () => Promise<void>): Promise<void> {
    const guarded = () => (this.stopped ? Promise.resolve() : job());
    const next = this.queue.then(guarded, guarded);
    this.queue = next.catch((err: unknown) => this.jobFailed(err));
    return next;
  }

  /** A job's journal fault is reported (every page shows it; JournalRecovery retries); any other error is logged. */
  private jobFailed(err: unknown, what = "ingest error:"): void {
    if (reportJournalFault(this.journal.file, err) === null) console.error(`[mailroom] ${what}`, err);
  }

  async start(): Promise<void> {
    const started = performance.now();
    // From the start: a first scan of a big tree takes a while, and the messages it has journaled
    // should count as stuck meanwhile (the sweep's candidates keep their index through a load).
    this.timers.push(setInterval(() => this.sweepStuck(), STUCK_CHECK_MS).unref());
    await this.serial(() => this.rescan(true))
      .finally(() => this.listingStarted())
      // A journal that cannot be written now (full disk, read-only, locked) is scanned again until it can.
      .catch((err: unknown) => this.recovery.firstScanFailed(err))
      .catch((err: unknown) => {
        // Ingest stops (its watches, queued events and timers too) until the next start: a failed
        // first scan may have left a load's indexes set aside (UnfinishedLoadError).
        this.stop();
        throw err;
      });
    if (this.stopped) return;
    this.recovery.firstScanDone();
    await this.recovery.persist(async () => this.journal.writer.analyze());
    console.log(`[mailroom] first scan done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // After the first scan, not before it: reading the queue folders for them took 0.19 s of a
    // million files warm, 0.5 s on a busy machine, all before the newest page. A leftover is a
    // dotfile no layout takes, so the scan passes it over, and so does the event of its removal.
    await clearStaleTempFiles(this.sources.flatMap((s) => s.reader.watchDirs));
    // After listing, not before: the first scan's messages are filterable at once, text search soon after.
    await this.recovery.persist(() => this.fillFullText(this.pause)).catch((err: unknown) => {
      if (!this.stopped) throw err;
    });
    if (this.stopped) return;
    releaseScanMemory();
    this.scheduleRescan(this.config.rescanMs);
  }

  /**
   * The safety-net rescan (events are the fast path). On a big tree a rescan is an lstat per file,
   * so the pause after one grows with what it took (nextRescanDelay): at 100,000 files rescans
   * cost a few percent of a core instead of ten.
   */
  private scheduleRescan(delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers = this.timers.filter((t) => t !== timer);
      void this.periodicRescan()
        .catch((err: unknown) => {
          // The next one tries again; a journal fault was reported by its turn, and is retried sooner.
          if (journalFaultKind(err) === null) console.error("[mailroom] rescan failed:", err);
          return 0;
        })
        .then((tookMs) => this.scheduleRescan(nextRescanDelay(this.config.rescanMs, tookMs)));
    }, delayMs).unref();
    this.timers.push(timer);
  }

  /** The readable sources as the last scan adopted them (empty before the first). */
  readableSources(): readonly ReadableSource[] {
    return this.sources;
  }

  /** Every source the last scan adopted, one message per file or many (empty before the first). */
  adoptedSources(): readonly Source[] {
    return this.adopted;
  }

  /** Scan everything once now (also what tests call to converge). */
  scanNow(): Promise<void> {
    return this.serial(() => this.rescan(false));
  }

  /**
   * Look at these absolute paths now, as if the watcher had reported them: operations call this
   * after a write so they can answer with the journal's key without waiting for the event.
   */
  syncPaths(absPaths: string[]): Promise<void> {
    return this.serial(async () => {
      await this.events.apply(absPaths);
      await this.entrySources.apply(absPaths);
    });
  }

  /**
   * Make an operation's writes, then look at the paths they touched, in one turn: a file event
   * seen between a move's two halves (the new file written, the old one not yet removed) would
   * journal the message twice, as two files at once, and the copy would get a key of its own.
   */
  async writeThenSync<T>(write: () => Promise<T>, absPaths: string[]): Promise<T> {
    let outcome: { value: T } | { error: unknown } | null = null;
    await this.serial(async () => {
      try {
        outcome = { value: await write() };
      } catch (error) {
        // The write's own failure (a 409) goes to its caller, not to ingest's error log.
        outcome = { error };
        return;
      }
      // The write is done: a journal that cannot take it now (a full disk) is ingest's to report
      // and catch up on, not a failure of the operation.
      await Promise.resolve().then(async () => {
        await this.events.apply(absPaths);
        await this.entrySources.apply(absPaths);
      }).catch((err: unknown) => {
        if (journalFaultKind(err) === null) throw err;
        this.jobFailed(err);
      });
    });
    const done = outcome as { value: T } | { error: unknown } | null;
    if (done === null) return write(); // stopped meanwhile: nothing to keep in step with
    if ("error" in done) throw done.error;
    return done.value;
  }

  stop(): void {
    this.stopped = true;
    this.recovery.close();
    void this.fullTextWorker?.close();
    for (const t of this.timers) clearTimeout(t);
    this.events.stop();
    this.watcher.close();
  }

  /**
   * The safety net behind file events. A big tree is listed and compared with the journal on a
   * worker thread, and only what differs comes back, to be looked at as if the watcher had
   * reported it: the main thread's share is proportional to the changes, not the tree. A small
   * tree (where a worker's start would cost more) is rescanned here, listed before its turn so
   * file events never queue behind a listing. Returns how long it took, in ms. Public for tests.
   */
  async periodicRescan(): Promise<number> {
    const started = performance.now();
    const all = await discoverSources(this.config.roots);
    const offThread = this.treeFiles >= this.offThreadFiles;
    const compared = offThread ? await this.compareOffThread(all) : null;
    let files = 0;
    if (compared) {
      await this.serial(() => this.reconcile(all, compared));
      for (const d of compared.values()) files += d.files;
    } else {
      const listings = new Map<string, SourceListing>();
      for (const s of all) if (s.reader && !this.stopped) listings.set(s.id, await listSource(s.root, s.reader));
      await this.serial(() => this.rescan(false, { all, listings }));
      for (const l of listings.values()) files += l.files.length;
      listings.clear();
      // A big tree rescanned here (its worker failed) leaves tens of MB of listings behind: collected now.
      if (files >= BIG_TREE_FILES) releaseScanMemory();
    }
    const totalMs = performance.now() - started;
    if (totalMs > SLOW_RESCAN_MS) console.log(`[mailroom] rescan of ${files} files took ${(totalMs / 1000).toFixed(1)} s`);
    return totalMs;
  }

  /** The full-text index's one fill (see fillFullText in off-thread.ts): a big tree's on a worker thread. */
  private async fillFullText(pause: () => Promise<void>): Promise<void> {
    await fillFullText(this.journal, {
      offThread: this.treeFiles >= this.offThreadFiles,
      pause,
      inTurn: (job) => this.serial(job),
      stopped: () => this.stopped,
      onWorker: (worker) => (this.fullTextWorker = worker),
    });
  }

  /** Each source's differences from the journal, computed on a worker thread (see compareOnWorker); null if that failed. */
  private compareOffThread(all: Source[], watchAsListed = false): Promise<Map<string, TreeDiff> | null> {
    const watch = watchAsListed ? (dir: string) => this.watcher.addDir(dir) : undefined;
    return compareOnWorker(all, this.journal.file, () => this.stopped, watch);
  }

  /** Apply a rescan's differences: each path is looked at now, as a file event would be. */
  private async reconcile(all: Source[], diffs: Map<string, TreeDiff>): Promise<void> {
    const { writer } = this.journal;
    this.adoptSources(all);
    const paths: string[] = [];
    for (const source of this.sources) {
      const diff = diffs.get(source.id);
      if (!diff) continue;
      if (diff.agents) writer.setAgents(source.id, diff.agents);
      this.problems.note(source, diff.unreadable);
      for (const rel of [...diff.changed.map((f) => f.relPath), ...diff.missing]) paths.push(absolute(source.root, rel));
    }
    this.treeFiles = [...diffs.values()].reduce((n, d) => n + d.files, 0);
    // Added to, not replacing, what is watched: a folder events found since the worker listed stays.
    this.watcher.addDirs([...diffs.values()].flatMap((d) => d.dirs));
    await this.events.apply(paths);
    const entries = await this.entrySources.scanAll(() => new Promise<void>((r) => setImmediate(r)), () => this.stopped);
    this.watcher.addDirs(entries.dirs);
    for (const source of this.sources) {
      const files = diffs.get(source.id)?.files;
      if (files !== undefined) writer.setProgress(source.id, files, files, true);
    }
    writer.refreshStuck(await this.stuckTimeout.refresh(this.sources));
    this.prune();
  }

  /**
   * Right after a load's chunk: what it loaded already stuck is shown so at once, not at the
   * timer's next tick (up to a second later, and skipped while workers write: at 100,000 messages
   * the newest page was wrong about a stuck message for 0.5 s). Waits out a worker's chunk.
   */
  private sweepLoaded(): void {
    try {
      this.journal.writer.refreshStuck(this.stuckTimeout.current());
    } catch (err) {
      // The timer tries again within the second.
      if (journalFaultKind(err) !== "busy") this.jobFailed(err, "could not mark stuck messages:");
    }
  }

  /** The timer's sweep: skipped while a worker writes (the next tick, a second later, does it). */
  private sweepStuck(): void {
    try {
      unlessWriting(this.journal.db, () => {
        this.journal.writer.refreshStuck(this.stuckTimeout.current());
        this.entrySources.sweepDue();
      });
    } catch (err) {
      this.jobFailed(err, "could not mark stuck messages:");
    }
  }

  /** Record the configured sources (and forget others); the readable ones are scanned. */
  private adoptSources(all: Source[]): void {
    const { writer } = this.journal;
    // A folder the last scan could not read stays the source's problem until a scan reads it.
    for (const s of all) writer.upsertSource({ id: s.id, protocol: s.protocol, root: s.root, error: this.problems.errorOf(s) });
    writer.keepOnlySources(all.map((s) => s.id));
    this.sources = all.filter((s): s is ReadableSource => s.reader !== null);
    this.adopted = all;
    this.entrySources.adopt(all);
  }

  /**
   * Retention, a batch at a time: a first prune of a long history is many batches, each its own
   * turn, so file events are journaled between them.
   */
  private prune(prunedSoFar = 0): void {
    const batch = this.journal.writer.prune(this.config.retainMs, this.config.retainCount);
    const pruned = prunedSoFar + batch;
    if (batch === PRUNE_BATCH) void this.serial(async () => this.prune(pruned));
    else if (pruned > 0) console.log(`[mailroom] retention: pruned ${pruned} completed messages`);
  }

  private async rescan(first: boolean, listed?: { all: Source[]; listings: Map<string, SourceListing> }): Promise<void> {
    const { writer } = this.journal;
    this.adoptSources(listed?.all ?? (await discoverSources(this.config.roots)));
    // Journaled before, a source's pages are right already: the server need not wait for its listing.
    if (first && this.sources.every((s) => writer.holdsFiles(s.id))) this.listingStarted();
    let files = 0;
    const watched: string[] = [];
    const lastScanned = new Map(querySources(this.journal.db).map((s) => [s.id, s.indexing.total]));
    const pause = () => new Promise<void>((r) => setImmediate(r));
    // A start on a tree of several protocols: the entry sources' newest commit comes before the
    // other sources' loads, not after all of IGNITE's (their second turn follows those loads).
    if (first && this.sources.length > 0) this.watcher.addDirs((await this.entrySources.scanAll(pause, () => this.stopped, first, true)).dirs);
    for (const source of this.sources) {
      if (this.stopped) return;
      // A big journaled tree (at a start, say) is compared off the main thread, as a periodic rescan does:
      // listing it here took 8.6 s of main-thread time at a million files. Not an empty one, which loads in bulk.
      const big = !listed && (lastScanned.get(source.id) ?? 0) >= this.offThreadFiles && writer.holdsFiles(source.id);
      const scanned = await scanSource(source, writer, {
        reportProgress: first,
        listing: listed?.listings.get(source.id),
        diff: big ? (await this.compareOffThread([source], true))?.get(source.id) : undefined,
        stopped: () => this.stopped,
        // Watched as listed: what changes meanwhile waits its turn behind this scan, not for a rescan.
        onDir: (dir) => this.watcher.addDir(dir),
        afterChunk: () => this.sweepLoaded(),
        onListing: first ? this.listingStarted : undefined,
      }).catch((err: unknown) => {
        // A fault that clears by itself is retried (what the load set aside is put back first).
        if (err instanceof UnfinishedLoadError && !isTransientFault(journalFaultKind(err))) this.stop();
        throw err;
      });
      files += scanned.files;
      this.problems.note(source, scanned.unreadable);
      // Read again only when the scan did not list the tree itself: at a million files that is 1.3 s of main thread.
      watched.push(...(scanned.dirs ?? listDirs(source.reader.watchDirs)));
      if (scanned.load) console.log(`[mailroom] ${describeLoad(source.root, scanned.files, scanned.load)}`);
    }
    const entries = await this.entrySources.scanAll(pause, () => this.stopped, first);
    watched.push(...entries.dirs);
    this.treeFiles = files + entries.files;
    writer.refreshStuck(await this.stuckTimeout.refresh(this.sources));
    this.prune();
    this.watcher.setDirs(watched);
  }
}
