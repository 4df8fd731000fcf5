import "server-only";
// The wave-2 sources of the workspaces, as ingest drives them: adopted at each scan, scanned
// whole then, and kept current by file events and an overdue sweep in between.
import { newestPageAfter } from "@/lib/journal/load-claim";
import { DEFAULT_LIMIT } from "@/lib/journal/queries";
import type { Journal } from "@/lib/journal/store";
import type { ReadContext } from "@/lib/protocols/layout";
import { EntryLanes } from "./entry-lanes";
import { EntryIngest, summaryOf, type BatchLimits, type EntryPlan, type EntrySource, type OnEntryCommit } from "./entry-ingest";
import type { Source } from "./sources";

/**
 * A start's first turn goes on, a small commit at a time, until the entry sources' newest page is
 * in (their first commit alone was not: three channels' tails filled it, and the page was right only
 * after IGNITE's load and a commit of the second turn, 5.6 s after the server's first answer); at
 * most this many commits, so a tree whose newest are not where their files say never holds IGNITE's load back long.
 */
const FIRST_TURN_MAX_COMMITS = 10;

export class EntrySources {
  private sources: EntrySource[] = [];
  private ingest: { db: Journal["db"]; ingest: EntryIngest } | null = null;
  /** A scan is under way: its sources' journal is not yet level with their files. */
  private scanning = false;
  /**
   * The trees as a start's first turn listed them, for its second turn: listed again, 20,000 IGNITE v2
   * files cost 0.3-0.5 s of the main thread. What changes meanwhile is heard by the watch on the
   * folders the first turn listed (see TreeScans.scan), as a change after any listing is.
   */
  private listedByFirstTurn = new Map<string, Pick<EntryPlan, "files" | "dirs">>();
  /** A start's first fills gone on with in lanes from its first turn to its second (see entry-lanes.ts). */
  private lanes: EntryLanes | null = null;

  constructor(
    private readonly journal: Journal,
    private readonly context: ReadContext = {},
    /** Tests: entries per commit (several commits of a small tree), a fixed clock, lanes for a small tree (LANES_FROM_BYTES). */
    private readonly testing: { limits?: BatchLimits; now?: () => number; lanesFromBytes?: number } = {},
  ) {}

  /** One EntryIngest per journal connection: the journal may be opened again (reopenJournal). */
  private current(): EntryIngest {
    if (this.ingest?.db !== this.journal.db) this.ingest = { db: this.journal.db, ingest: new EntryIngest(this.journal.db, this.testing.now, this.context, this.testing.limits) };
    return this.ingest.ingest;
  }

  adopt(all: readonly Source[]): void {
    this.sources = all.flatMap((s) => (s.entries ? [s.entries] : []));
  }

  list(): readonly EntrySource[] {
    return this.sources;
  }

  /**
   * Scan every adopted source, their changed files in one order, newest first; returns the folders
   * to watch and how many files they hold. `report` (a start's scan): each source's progress and
   * load claim are kept after each commit, so pages say how far it is (see load-claim.ts).
   */
  async scanAll(
    pause: () => Promise<void>,
    stopped: () => boolean,
    report = false,
    /** Only the newest commits, the first of a start's two turns (see TreeScans.scan): the sweep waits for the second. */
    firstTurn = false,
  ): Promise<{ dirs: string[]; files: number }> {
    const { writer } = this.journal;
    this.scanning = true;
    try {
      const plans: EntryPlan[] = [];
      const listed = this.listedByFirstTurn;
      this.listedByFirstTurn = new Map();
      // Only the start's second turn goes on from its first turn's lanes; anything else first (a
      // retry after a fault, a rescan) may have written their sources since they copied them.
      if (report && !firstTurn) await this.mergeLanes(stopped);
      else await this.giveUpLanes();
      for (const source of this.sources) if (!stopped()) plans.push(await this.current().plan(source, report && !firstTurn ? listed.get(source.id) : undefined));
      if (firstTurn) this.listedByFirstTurn = new Map(plans.map((p) => [p.source.id, { files: p.files, dirs: p.dirs }]));
      const total = new Map(plans.map((p) => [p.source.id, { unchanged: p.files.length - p.changed.length, files: p.files.length }]));
      const progress = (id: string, loaded: number, claimMs: number) => {
        const t = total.get(id) ?? { unchanged: 0, files: 0 };
        writer.setProgress(id, t.unchanged + loaded, t.files, false);
        writer.setLoadClaim(id, claimMs);
      };
      const onCommit: OnEntryCommit | undefined = report ? (source, loaded, claimMs) => progress(source.id, loaded, claimMs) : undefined;
      const ids = plans.map((p) => p.source.id);
      const turn = { maxCommits: FIRST_TURN_MAX_COMMITS, enough: (claimMs: number) => newestPageAfter(this.journal.db, ids, claimMs, DEFAULT_LIMIT) };
      await this.current().load(plans, { pause, stopped, onCommit, ...(firstTurn ? turn : {}) });
      if (firstTurn && !stopped()) this.lanes = await this.startLanes(plans);
      // Stopped mid-load, or a first turn: not known to be level with the tree, so not done (the next scan reads the rest).
      // A first turn's folders are watched from now on (its listing is its second turn's).
      if (stopped() || firstTurn) return { dirs: firstTurn ? plans.flatMap((p) => p.dirs) : [], files: 0 };
      for (const p of plans) {
        writer.setAgents(p.source.id, summaryOf(p).agents);
        writer.setProgress(p.source.id, p.files.length, p.files.length, true);
        writer.setLoadClaim(p.source.id, null);
      }
      return { dirs: plans.flatMap((p) => p.dirs), files: plans.reduce((n, p) => n + p.files.length, 0) };
    } finally {
      // Held from a first turn to the end of the second; a second that never comes (the service
      // stopped, a journal fault) comes with the next rescan, which starts again from the first.
      if (!firstTurn || stopped()) this.scanning = false;
    }
  }

  /**
   * Lanes for the fills a first turn left (see entry-lanes.ts), sized by what is left of them to
   * read (their plans against the journal again, from the same listing); none if they cannot start,
   * and the fills go on in place.
   */
  private async startLanes(plans: readonly EntryPlan[]): Promise<EntryLanes | null> {
    try {
      const left = this.current().fillsLeft();
      const now: EntryPlan[] = [];
      for (const p of plans) if (left.includes(p.source.id)) now.push(await this.current().plan(p.source, p));
      return EntryLanes.start(this.journal.file, now, left, this.context, this.testing.lanesFromBytes);
    } catch (err) {
      console.error("[mailroom] could not start lanes for the first fills; they go on in place:", err);
      return null;
    }
  }

  /** Merge the lanes a first turn started: their sources' fills then go on from what they wrote. */
  private async mergeLanes(stopped: () => boolean): Promise<void> {
    try {
      await this.lanes?.merge(stopped);
    } finally {
      this.lanes = null;
    }
  }

  /** Give up any lanes under way (their sources are read in place), as when the service stops. */
  async giveUpLanes(): Promise<void> {
    const lanes = this.lanes;
    this.lanes = null;
    await lanes?.close();
  }

  /** File events: each source takes the paths that are its own. */
  async apply(absPaths: readonly string[]): Promise<void> {
    // Events wait behind a start's scan, so only a scan that failed between its turns leaves lanes to give up here.
    await this.giveUpLanes();
    for (const source of this.sources) await this.current().applyPaths(source, absPaths);
  }

  /**
   * Overdue entries become stuck; not while a scan is under way, when a request may be journaled a
   * batch before the answer already in its files (a first scan of a 100 MB channel marked 17,000
   * answered requests overdue, each with an "overdue" step in its history, and cleared them again).
   */
  sweepDue(): number {
    return this.sources.length > 0 && !this.scanning ? this.current().sweepDue() : 0;
  }
}
