import "server-only";
// Whole-tree scans: the first one at a start (a bulk load into an empty journal), and the safety
// net behind file events, a rescan every so often timed by what the last one cost. A big tree is
// compared with the journal on a worker thread and only what differs comes back; a small one is
// listed before its turn and rescanned in it.
import type { Journal } from "@/lib/journal/store";
import { isTransientFault, journalFaultKind } from "@/lib/journal/faults";
import { querySources } from "@/lib/journal/queries";
import { describeLoad, scanSource, UnfinishedLoadError } from "./scan";
import { HeadStart, waitsForListing } from "./head-start";
import { discoverSources, keptNames, type Source } from "./sources";
import { absolute } from "./read";
import type { TreeDiff } from "./worker";
import type { ReadableSource } from "./sync";
import { releaseScanMemory } from "./release-memory";
import { listDirs, type DirWatcher } from "./watch";
import type { FileEvents } from "./file-events";
import { listSource, type SourceListing } from "./listing";
import type { SourceProblems } from "./source-problems";
import type { StuckTimeout } from "./stuck-timeout";
import { compareOnWorker } from "./off-thread";
import type { EntrySources } from "./entry-sources";

/** A periodic rescan waits at least this many times its own duration before the next. */
const RESCAN_COST_FACTOR = 20;
/** Rescans slower than this are logged: the tree is big enough that an operator may want to know. */
const SLOW_RESCAN_MS = 2000;
/** From this many files the tree is compared with the journal, and the full-text index filled after a start's scan, on a worker thread. */
export const BIG_TREE_FILES = 20_000;

/** The pause before the next periodic rescan: the setting, or longer when rescans are slow (a big tree). */
export function nextRescanDelay(rescanMs: number, lastRescanMs: number): number {
  return Math.max(rescanMs, Math.round(RESCAN_COST_FACTOR * lastRescanMs));
}

/** What a scan works with: the ingest service's parts, and its turn (see IngestService). */
export interface RescanHost {
  roots: string[];
  rescanMs: number;
  journal: Journal;
  watcher: DirWatcher;
  events: FileEvents;
  entrySources: EntrySources;
  problems: SourceProblems;
  stuckTimeout: StuckTimeout;
  /** From how many files of the last scan a rescan is compared on a worker thread. */
  offThreadFiles: number;
  treeFiles: { get(): number; set(files: number): void };
  serial(job: () => Promise<void>): Promise<void>;
  stopped(): boolean;
  /** Stop ingest: a first scan's load failed for good, and may have left the journal's indexes set aside. */
  stop(): void;
  /** Record the sources found (and forget others); returns the readable ones. */
  adoptSources(all: Source[]): readonly ReadableSource[];
  /** After each chunk of a load: see IngestService.sweepLoaded. */
  sweepLoaded(): void;
  prune(): void;
}

export class TreeScans {
  private timer: NodeJS.Timeout | null = null;
  /** A first start's wait for its first listing: told as each source is listed. */
  readonly headStart = new HeadStart();

  constructor(private readonly host: RescanHost) {}

  /**
   * The next rescan, `delayMs` from now. On a big tree a rescan is an lstat per file, so the pause
   * after one grows with what it took (nextRescanDelay): at 100,000 files rescans cost a few
   * percent of a core instead of ten.
   */
  schedule(delayMs: number): void {
    if (this.host.stopped()) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.periodic()
        .catch((err: unknown) => {
          // The next one tries again; a journal fault was reported by its turn, and is retried sooner.
          if (journalFaultKind(err) === null) console.error("[mailroom] rescan failed:", err);
          return 0;
        })
        .then((tookMs) => this.schedule(nextRescanDelay(this.host.rescanMs, tookMs)));
    }, delayMs).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Scan every source in this turn: the first scan at a start, a rescan from `listed` (listings made
   * before this turn), or a rescan here (a folder readable again, a test converging).
   */
  async scan(first: boolean, listed?: { all: Source[]; listings: Map<string, SourceListing> }): Promise<void> {
    const { host } = this;
    const { writer } = host.journal;
    // A start over a journal that knows its sources serves at once (see HeadStart).
    if (first && !waitsForListing(host.journal.db)) this.headStart.done();
    const sources = host.adoptSources(listed?.all ?? (await this.discover()));
    // Sources of many-entry files alone: their first pass commits each file's newest after serving begins, as before.
    if (sources.length === 0) this.headStart.done();
    let files = 0;
    const watched: string[] = [];
    const lastScanned = new Map(querySources(host.journal.db).map((s) => [s.id, s.indexing.total]));
    const pause = () => new Promise<void>((r) => setImmediate(r));
    // A start on a tree of several protocols: the entry sources' newest commit comes before the
    // other sources' loads, not after all of IGNITE's (their second turn follows those loads).
    if (first && sources.length > 0) host.watcher.addDirs((await host.entrySources.scanAll(pause, host.stopped, first, true)).dirs);
    for (const source of sources) {
      if (host.stopped()) return;
      // A big journaled tree (at a start, say) is compared off the main thread, as a periodic rescan does:
      // listing it here took 8.6 s of main-thread time at a million files. Not an empty one, which loads in bulk.
      const big = !listed && (lastScanned.get(source.id) ?? 0) >= host.offThreadFiles && writer.holdsFiles(source.id);
      const scanned = await scanSource(source, writer, {
        reportProgress: first,
        listing: listed?.listings.get(source.id),
        diff: big ? (await compareOnWorker([source], host.journal.file, host.stopped, (dir) => host.watcher.addDir(dir)))?.get(source.id) : undefined,
        stopped: host.stopped,
        // Watched as listed: what changes meanwhile waits its turn behind this scan, not for a rescan.
        onDir: (dir) => host.watcher.addDir(dir),
        afterChunk: () => host.sweepLoaded(),
        onListed: () => this.headStart.done(),
      }).catch((err: unknown) => {
        // A fault that clears by itself is retried (what the load set aside is put back first).
        if (err instanceof UnfinishedLoadError && !isTransientFault(journalFaultKind(err))) host.stop();
        throw err;
      });
      files += scanned.files;
      host.problems.note(source, scanned.unreadable);
      // Read again only when the scan did not list the tree itself: at a million files that is 1.3 s of main thread.
      watched.push(...(scanned.dirs ?? listDirs(source.reader.watchDirs)));
      if (scanned.load) console.log(`[mailroom] ${describeLoad(source.root, scanned.files, scanned.load)}`);
    }
    const entries = await host.entrySources.scanAll(pause, host.stopped, first);
    watched.push(...entries.dirs);
    host.treeFiles.set(files + entries.files);
    writer.refreshStuck(await host.stuckTimeout.refresh(sources));
    host.prune();
    host.watcher.setDirs(watched);
  }

  /**
   * One periodic rescan. A big tree is listed and compared with the journal on a worker thread, and only
   * what differs comes back, to be looked at as if the watcher had reported it: the main thread's
   * share is proportional to the changes, not the tree. A small tree (where a worker's start would
   * cost more) is rescanned here, listed before its turn so file events never queue behind a
   * listing. Returns how long it took, in ms.
   */
  async periodic(): Promise<number> {
    const { host } = this;
    const started = performance.now();
    const all = await this.discover();
    const compared = host.treeFiles.get() >= host.offThreadFiles ? await compareOnWorker(all, host.journal.file, host.stopped) : null;
    let files = 0;
    if (compared) {
      await host.serial(() => this.reconcile(all, compared));
      for (const d of compared.values()) files += d.files;
    } else {
      const listings = new Map<string, SourceListing>();
      for (const s of all) if (s.reader && !host.stopped()) listings.set(s.id, await listSource(s.root, s.reader));
      await host.serial(() => this.scan(false, { all, listings }));
      for (const l of listings.values()) files += l.files.length;
      listings.clear();
      // A big tree rescanned here (its worker failed) leaves tens of MB of listings behind: collected now.
      if (files >= BIG_TREE_FILES) releaseScanMemory();
    }
    const totalMs = performance.now() - started;
    if (totalMs > SLOW_RESCAN_MS) console.log(`[mailroom] rescan of ${files} files took ${(totalMs / 1000).toFixed(1)} s`);
    return totalMs;
  }

  /** The roots' sources, under the names the journal knows them by (see rootNames). */
  private discover(): Promise<Source[]> {
    return discoverSources(this.host.roots, keptNames(querySources(this.host.journal.db)));
  }

  /** Apply a rescan's differences: each path is looked at now, as a file event would be. */
  private async reconcile(all: Source[], diffs: Map<string, TreeDiff>): Promise<void> {
    const { host } = this;
    const { writer } = host.journal;
    const sources = host.adoptSources(all);
    const paths: string[] = [];
    for (const source of sources) {
      const diff = diffs.get(source.id);
      if (!diff) continue;
      if (diff.agents) writer.setAgents(source.id, diff.agents);
      host.problems.note(source, diff.unreadable);
      for (const rel of [...diff.changed.map((f) => f.relPath), ...diff.missing]) paths.push(absolute(source.root, rel));
    }
    host.treeFiles.set([...diffs.values()].reduce((n, d) => n + d.files, 0));
    // Added to, not replacing, what is watched: a folder events found since the worker listed stays.
    host.watcher.addDirs([...diffs.values()].flatMap((d) => d.dirs));
    await host.events.apply(paths);
    const entries = await host.entrySources.scanAll(() => new Promise<void>((r) => setImmediate(r)), host.stopped);
    host.watcher.addDirs(entries.dirs);
    for (const source of sources) {
      const files = diffs.get(source.id)?.files;
      if (files !== undefined) writer.setProgress(source.id, files, files, true);
    }
    writer.refreshStuck(await host.stuckTimeout.refresh(sources));
    host.prune();
  }
}
