import "server-only";
// A start's big first fills, gone on with in lanes (lib/journal/lane.ts): once the start's first
// turn has journaled the entry sources' newest, the rest of their fills goes on in worker threads,
// each lane into a journal file of its own, while this thread loads IGNITE's trees. The start's
// second turn merges each lane as it is done, then loads whatever is still to read as it always
// did: a lane that fails (or a merge) is given up, and its source is read in place.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { removeLane, type LaneSeed } from "@/lib/journal/lane";
import type { ReadContext } from "@/lib/protocols/layout";
import type { EntryPlan } from "./entry-plan";
import type { FillLaneJob } from "./worker-jobs";
import { IngestWorkers } from "./workers";

/**
 * Lanes pay for themselves from this much left to read: three workers start (0.15-0.2 s each), each
 * lane copies what the first turn wrote, and each merge writes its rows again (0.6-0.9 s a source
 * of 20,000 messages).
 */
export const LANES_FROM_BYTES = 8 * 1024 * 1024;
/** Lanes filling side by side, a core each, up to this many: each is a connection with its own cache, and one writer merges them all. */
const MAX_LANE_THREADS = 4;

/**
 * What a file costs a fill beside its bytes, in bytes (its open, reads and journal row): a lane
 * spent 0.29-0.35 µs a byte on channels and inboxes of 3-500 files, and IGNITE v2's 20,000 files
 * of 7.1 MB took 3.2 s, 50 µs a file more (scripts/bench-entry-fill.ts, 20,000 messages each).
 */
const FILE_COST_BYTES = 150;

const LANE_MARK = ".lane-";

type Filled = { seed: LaneSeed; changed: number };

interface Lane {
  file: string;
  sources: string[];
  /** Its fill, sent to a thread once one is free (see fillNext). */
  job: Omit<FillLaneJob, "kind" | "id">;
  filled: Promise<Filled>;
  done: (f: Filled) => void;
  failed: (err: unknown) => void;
}

export class EntryLanes {
  private readonly startedAt = performance.now();
  /** Given up (closed): what fails from then on was stopped, and is not news. */
  private closed = false;
  /** Lanes waiting for a thread, the costliest first. */
  private readonly queued: Lane[];
  private filling = 0;

  private constructor(
    private readonly journalFile: string,
    private readonly workers: IngestWorkers,
    /**
     * Merges on a thread of their own, at the server's priority: on a lane's thread (lowered, see
     * worker.ts) a merge shared the cores with the lanes still filling, and the first of four took 2.8 s.
     */
    private readonly merger: IngestWorkers,
    private readonly lanes: Lane[],
    private readonly threads: number,
  ) {
    this.queued = [...lanes];
    this.fillNext();
  }

  /**
   * Each lane to the first thread free, not each to a thread as they are sent (the workers'
   * least busy): sent at once, the four lanes of 100,000 mixed went two to a thread, and one
   * thread filled 2 s longer than the other.
   */
  private fillNext(): void {
    while (!this.closed && this.filling < this.threads) {
      const lane = this.queued.shift();
      if (!lane) return;
      this.filling++;
      this.workers.fillLane(lane.job).then(lane.done, lane.failed).finally(() => {
        this.filling--;
        this.fillNext();
      });
    }
  }

  /**
   * Lanes for the first fills the first turn `left` part-way (`plans`: what is left of each to
   * read), or null: too little left for lanes to win, fewer than two such sources or cores, or no
   * worker threads. Lanes a killed server left are removed first.
   */
  static start(journalFile: string, plans: readonly EntryPlan[], left: readonly string[], context: ReadContext, fromBytes = LANES_FROM_BYTES): EntryLanes | null {
    removeLeftLanes(journalFile);
    const costOf = (p: EntryPlan) => p.changed.reduce((n, f) => n + f.size + FILE_COST_BYTES, 0);
    // The costliest first: a lane a source, each merged as it is done while the others still fill, so
    // the last merge, the one nothing else hides, is a small source's (two lanes of two sources
    // each: the second lane's merge took 1.47 s after its fill, 100,000 mixed).
    const fills = plans.filter((p) => left.includes(p.source.id) && p.changed.length > 0).sort((a, b) => costOf(b) - costOf(a));
    const bytes = fills.reduce((n, p) => n + p.changed.reduce((m, f) => m + f.size, 0), 0);
    const threads = Math.min(os.availableParallelism(), fills.length, MAX_LANE_THREADS);
    if (bytes < fromBytes || threads < 2) return null;
    const workers = IngestWorkers.open(threads);
    const merger = workers && IngestWorkers.open(1);
    if (!workers || !merger) {
      void workers?.close();
      return null;
    }
    const lanes = fills.map((p, i): Lane => {
      const file = `${journalFile}${LANE_MARK}${i}`;
      const source = { id: p.source.id, layout: p.source.layout, files: p.files, dirs: p.dirs };
      let done: Lane["done"] = () => {};
      let failed: Lane["failed"] = () => {};
      const filled = new Promise<Filled>((resolve, reject) => ([done, failed] = [resolve, reject]));
      // Said by merge() when it comes to the lane; lanes given up before are not waited for.
      filled.catch(() => {});
      return { file, sources: [source.id], job: { journalFile, laneFile: file, sources: [source], context }, filled, done, failed };
    });
    return new EntryLanes(journalFile, workers, merger, lanes, threads);
  }

  /**
   * Merge each lane into the journal as it is done, on a worker: a merge writes a lane's every row
   * again (see LANES_FROM_BYTES), and requests go on meanwhile. Returns the sources merged.
   * Stopped: the lanes are given up. Call it when nothing else writes the lanes' sources, nor holds
   * the journal's write lock for long (a start's second turn, after IGNITE's loads).
   */
  async merge(stopped: () => boolean): Promise<string[]> {
    const merged: string[] = [];
    const since = () => `${((performance.now() - this.startedAt) / 1000).toFixed(2)} s`;
    const steps: string[] = [`merging from ${since()}`];
    try {
      const waiting = new Set(this.lanes);
      const failed = (what: string) => (err: unknown) => {
        if (!this.closed) console.error(`[mailroom] ${what}; read in place instead:`, err);
        return null;
      };
      while (waiting.size > 0 && !stopped() && !this.closed) {
        const lane = await Promise.race([...waiting].map((l) => l.filled.then(() => l, () => l)));
        waiting.delete(lane);
        const filled = await lane.filled.catch(failed(`the lane filling ${lane.sources.join(", ")} failed`));
        if (!filled || stopped()) continue;
        steps.push(`${lane.sources.join(", ")} filled by ${since()}`);
        const done = await this.merger.mergeLane({ journalFile: this.journalFile, laneFile: lane.file, seed: filled.seed }).catch(failed(`the lane of ${lane.sources.join(", ")} could not be merged`));
        if (done === null) continue;
        steps.push(`merged by ${since()}`);
        merged.push(...lane.sources);
      }
    } finally {
      await this.close();
    }
    console.log(`[mailroom] first fills in ${this.lanes.length} lanes, from their start: ${steps.join("; ")}`);
    return merged;
  }

  /** Stop the lanes and remove their journals. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lane of this.queued.splice(0)) lane.failed(new Error("the lanes were given up"));
    await Promise.all([this.workers.close(), this.merger.close()]);
    for (const lane of this.lanes) removeLane(lane.file);
  }
}

/** Lanes of `journalFile` left on disk (a server killed while they filled): never merged, so only removed. */
function removeLeftLanes(journalFile: string): void {
  const dir = path.dirname(journalFile);
  const mark = `${path.basename(journalFile)}${LANE_MARK}`;
  for (const name of fs.readdirSync(dir)) if (name.startsWith(mark)) fs.rmSync(path.join(dir, name), { force: true });
}
