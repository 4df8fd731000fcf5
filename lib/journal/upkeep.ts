import "server-only";
import { FILE_LIFE } from "./file-life";
import { currentSeq } from "./queries";
import { addEvent, nextSeq, type WriterParts } from "./writer-parts";

// The journal's upkeep, as the writer runs it: retention's prune, and the stuck sweep.

/**
 * Completed messages whose files are gone, the only ones retention prunes (INDEXED BY: see prune);
 * not while a dead letter on disk holds one (archived at its requeue): the letter would lose its
 * message, and restoring the letter could not make it dead again.
 */
const PRUNABLE = `FROM messages AS m INDEXED BY messages_prunable WHERE status = '${FILE_LIFE.deleted}' AND path IS NULL
  AND NOT EXISTS (SELECT 1 FROM messages AS letter WHERE letter.dead_letter_of = m.key AND letter.path IS NOT NULL)`;
/** Messages pruned in one write at most. */
export const PRUNE_BATCH = 5000;

/**
 * Retention: forget the oldest completed messages whose files are gone — older than `maxAgeMs`
 * (by when they went), and beyond the newest `maxCount`. Nothing on disk, dead or discarded is
 * ever pruned. 0 turns a limit off. At most `batch` go in one call (the oldest first), so a
 * first prune of a long history does not hold the journal in one long write; returns how many
 * were pruned. Runs after every rescan, so it reads only what it prunes: the prunable are their
 * own index (migration 14), and a count limit is first checked against the overview's counts,
 * then walks only the messages it keeps. `transaction` runs the deletes as one write.
 */
export function prune(parts: WriterParts, transaction: (fn: () => void) => void, maxAgeMs: number, maxCount: number, batch: number): number {
  const { sql } = parts;
  // Both limits doom the oldest first, in one order: what they doom together is the longer list.
  const byAge = maxAgeMs > 0
    ? (sql(`SELECT key ${PRUNABLE} AND updated_ms < ? ORDER BY updated_ms, key LIMIT ?`).pluck().all(parts.now() - maxAgeMs, batch) as string[])
    : [];
  const completed = sql("SELECT coalesce(sum(n), 0) FROM agent_counts WHERE status = ?").pluck().get(FILE_LIFE.deleted) as number;
  let byCount: string[] = [];
  if (maxCount > 0 && completed > maxCount) {
    // The oldest message kept; those before it go.
    const kept = sql(`SELECT updated_ms, key ${PRUNABLE} ORDER BY updated_ms DESC, key DESC LIMIT 1 OFFSET ?`).get(maxCount - 1) as
      | { updated_ms: number; key: string }
      | undefined;
    if (kept) {
      byCount = sql(`SELECT key ${PRUNABLE} AND (updated_ms, key) < (?, ?) ORDER BY updated_ms, key LIMIT ?`)
        .pluck().all(kept.updated_ms, kept.key, batch) as string[];
    }
  }
  const doomed = byAge.length >= byCount.length ? byAge : byCount;
  if (doomed.length === 0) return 0;
  const dropMessage = sql("DELETE FROM messages WHERE key = ?");
  const dropEvents = sql("DELETE FROM events WHERE key = ?");
  transaction(() => {
    for (const key of doomed) {
      dropEvents.run(key);
      dropMessage.run(key);
    }
    // The journal changed (counts, last activity): a seq says so to whatever caches by it.
    nextSeq(parts);
  });
  return doomed.length;
}

/** A stuck sweep: the mtime it marked up to, and the journal's seq when it was done (see sweepStuck). */
interface StuckSweep {
  threshold: number;
  seq: number;
}

/**
 * The rows this sweep keeps: the one-file-per-message path's (writer.ts), which no entry has. An
 * entry's row is stuck once overdue by its adapter's due time (EntryWriter.sweepDue): clearing those
 * here, as not in the stuck status, made the next sweepDue mark them again, a step each second.
 */
const FILE_ROWS = "NOT EXISTS (SELECT 1 FROM entries e WHERE e.key = messages.key)";

/**
 * Mark messages processing longer than `stuckAfterMs` as stuck, and clear it once they moved on;
 * returns how many changed. The sweep runs every second, so it reads only rows whose state may
 * have changed, never every stuck or processing message (at a million messages, with 20,000 of
 * each, reading them took 140 ms of every second). Time only makes a message stuck, and the
 * candidates are kept in their own small index (migration 13). A message stops being stuck only
 * when it is written (it moves on, is rewritten or goes away), and every write takes a new seq: so
 * only rows written since the last sweep need checking, or all stuck rows when there are fewer of
 * those (after a burst of writes, a first load), and always when the threshold went back (another
 * timeout, the clock set back) or there was no sweep yet. The last sweep is kept in the journal,
 * in the sweep's own transaction, so a restart goes on from it (at a million messages a full check
 * read 20,000 rows in 1.1 s).
 */
export function sweepStuck(parts: WriterParts, stuckAfterMs: number): number {
  const { sql } = parts;
  const threshold = parts.now() - stuckAfterMs;
  // INDEXED BY: sampled statistics (analysis_limit) make the planner walk every processing row instead.
  const newlyStuck = sql(
    `SELECT key, mtime_ms FROM messages INDEXED BY messages_processing_unstuck
     WHERE status = '${FILE_LIFE.stuck}' AND stuck = 0 AND path IS NOT NULL AND mtime_ms <= ? AND ${FILE_ROWS}`,
  ).all(threshold) as { key: string; mtime_ms: number }[];
  for (const r of newlyStuck) {
    sql("UPDATE messages SET stuck = 1, seq = ? WHERE key = ?").run(nextSeq(parts), r.key);
    addEvent(parts, r.key, r.mtime_ms + stuckAfterMs, "stuck", `${FILE_LIFE.stuck} for more than ${Math.round(stuckAfterMs / 1000)} s`);
  }
  const movedOn = `stuck = 1 AND (status != '${FILE_LIFE.stuck}' OR path IS NULL OR mtime_ms > ?) AND ${FILE_ROWS}`;
  const last = lastStuckSweep(parts);
  const stuckRows = sql("SELECT coalesce(sum(stuck), 0) FROM agent_counts").pluck().get() as number;
  const since = last && threshold >= last.threshold && currentSeq(parts.db) - last.seq < stuckRows ? last.seq : null;
  const cleared = (
    since === null
      ? sql(`SELECT key FROM messages WHERE ${movedOn}`).all(threshold)
      : sql(`SELECT key FROM messages WHERE seq > ? AND ${movedOn}`).all(since, threshold)
  ) as { key: string }[];
  for (const r of cleared) sql("UPDATE messages SET stuck = 0, seq = ? WHERE key = ?").run(nextSeq(parts), r.key);
  const seq = currentSeq(parts.db);
  // Kept as it is when nothing was written since: it still holds for every later threshold (and
  // an idle journal is not written every second).
  if (!last || seq !== last.seq || threshold < last.threshold) saveStuckSweep(parts, { threshold, seq });
  return newlyStuck.length + cleared.length;
}

function lastStuckSweep({ sql }: WriterParts): StuckSweep | null {
  const kept = new Map(
    (sql("SELECT name, value FROM meta WHERE name IN ('stuck_swept_threshold', 'stuck_swept_seq')").all() as { name: string; value: number }[])
      .map((r) => [r.name, r.value]),
  );
  const [threshold, seq] = [kept.get("stuck_swept_threshold"), kept.get("stuck_swept_seq")];
  return threshold === undefined || seq === undefined ? null : { threshold, seq };
}

function saveStuckSweep({ sql }: WriterParts, s: StuckSweep): void {
  const save = sql("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value");
  save.run("stuck_swept_threshold", s.threshold);
  save.run("stuck_swept_seq", s.seq);
}
