import "server-only";
// A worker thread's side of a lane (see entry-lanes.ts): the lane's journal made from a copy of
// what the journal holds of its sources, and their first fills gone on with there, by the same
// EntryIngest as in place. The main thread merges the lane once this answers.
import { openLane } from "@/lib/journal/lane";
import { readSideFor } from "@/lib/protocols";
import { BATCH_ENTRIES } from "./entry-batch";
import { TAIL_BYTES } from "./entry-files";
import { EntryIngest, type BatchLimits, type EntrySource } from "./entry-ingest";
import type { FillLaneJob, FillLaneResult } from "./worker-jobs";

/**
 * A load's commits, though no request waits on this thread. With 8,000 entries a commit and a 32 MB
 * cache each, four lanes took the server's peak memory to 795 MB and the mixed start to 10.8 s;
 * with 2,000 and 8 MB, 688 MB and 9.9 s (100,000 messages, its two in place: 572 MB, 13.5 s).
 * Its files are read here, none ahead on another thread (the lanes are the second core's work
 * already), but warmed ahead from a cold disk (see warm-ahead.ts).
 */
const LANE_LIMITS: BatchLimits = { first: BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: TAIL_BYTES, readAheadFiles: Infinity, warmAhead: true };

/** `now` and `limits`: a test's clock, and commits as small as the fill in place it compares the lane with. */
export async function fillLane(job: FillLaneJob, now: () => number = Date.now, limits: BatchLimits = LANE_LIMITS): Promise<FillLaneResult> {
  const sources = job.sources.map(({ id, layout }): EntrySource => {
    const side = readSideFor(layout.protocol);
    if (!side) throw new Error(`no read side for ${layout.protocol}`);
    return { id, protocol: side.protocol, root: layout.root, layout, side };
  });
  const { db, seed } = openLane(job.laneFile, job.journalFile, sources.map((s) => s.id));
  try {
    const ingest = new EntryIngest(db, now, job.context, limits);
    ingest.goOnWithFills(sources.map((s) => s.id));
    const plans = [];
    for (const [i, source] of sources.entries()) plans.push(await ingest.plan(source, job.sources[i]));
    const changed = await ingest.load(plans, { pause: async () => {} });
    return { id: job.id, lane: { seed, changed } };
  } finally {
    db.close();
  }
}
