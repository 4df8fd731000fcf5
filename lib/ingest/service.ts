import "server-only";
import type { Config } from "@/lib/server/config";
import type { Journal } from "@/lib/journal/store";
import { JOURNAL_RETRY_MS, journalFaultKind, reportJournalFault } from "@/lib/journal/faults";
import { unlessWriting } from "@/lib/journal/db";
import { PRUNE_BATCH } from "@/lib/journal/upkeep";
import { clearStaleTempFiles } from "@/lib/operations/temp-files";
import type { Source } from "./sources";
import { IngestWorkers } from "./workers";
import type { ReadableSource } from "./sync";
import { releaseScanMemory } from "./release-memory";
import { DirWatcher } from "./watch";
import { FileEvents } from "./file-events";
import { JournalRecovery } from "./journal-retry";
import { SourceProblems } from "./source-problems";
import { StuckTimeout } from "./stuck-timeout";
import { fillFullText } from "./off-thread";
import { EntrySources } from "./entry-sources";
import { BIG_TREE_FILES, TreeScans } from "./tree-scans";

const STUCK_CHECK_MS = 1000;

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
  /** The first scan and the periodic rescans. */
  private readonly scans: TreeScans;

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
    this.scans = new TreeScans({
      roots: config.roots,
      rescanMs: config.rescanMs,
      journal,
      watcher: this.watcher,
      events: this.events,
      entrySources: this.entrySources,
      problems: this.problems,
      stuckTimeout: this.stuckTimeout,
      offThreadFiles,
      treeFiles: { get: () => this.treeFiles, set: (files) => (this.treeFiles = files) },
      serial: (job) => this.serial(job),
      stopped: () => this.stopped,
      stop: () => this.stop(),
      adoptSources: (all) => {
        this.adoptSources(all);
        return this.sources;
      },
      sweepLoaded: () => this.sweepLoaded(),
      prune: () => this.prune(),
    });
    this.recovery = new JournalRecovery({
      journal,
      serial: (job) => this.serial(job),
      rescan: (first) => this.scans.scan(first),
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
      await this.scans.scan(false);
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

  /** Resolves once a first start's scan has listed its tree (see HeadStart); at once for a journal that knows a source. */
  headStarted(): Promise<void> {
    return this.scans.headStart.wait();
  }

  async start(): Promise<void> {
    const started = performance.now();
    // From the start: a first scan of a big tree takes a while, and the messages it has journaled
    // should count as stuck meanwhile (the sweep's candidates keep their index through a load).
    this.timers.push(setInterval(() => this.sweepStuck(), STUCK_CHECK_MS).unref());
    await this.serial(() => this.scans.scan(true))
      // A journal that cannot be written now (full disk, read-only, locked) is scanned again until it can.
      .catch((err: unknown) => this.recovery.firstScanFailed(err))
      .catch((err: unknown) => {
        // Ingest stops (its watches, queued events and timers too) until the next start: a failed
        // first scan may have left a load's indexes set aside (UnfinishedLoadError).
        this.stop();
        throw err;
      })
      .finally(() => this.scans.headStart.done());
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
    this.scans.schedule(this.config.rescanMs);
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
    return this.serial(() => this.scans.scan(false));
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

  /** One periodic rescan now (see TreeScans.periodic); how long it took, in ms. Public for tests. */
  periodicRescan(): Promise<number> {
    return this.scans.periodic();
  }

  stop(): void {
    this.stopped = true;
    this.scans.stop();
    this.recovery.close();
    void this.fullTextWorker?.close();
    void this.entrySources.giveUpLanes();
    for (const t of this.timers) clearTimeout(t);
    this.events.stop();
    this.watcher.close();
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
}
