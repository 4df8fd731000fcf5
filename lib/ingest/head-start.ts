import "server-only";
import type { Db } from "@/lib/journal/db";
import { querySources } from "@/lib/journal/queries";

/**
 * The most a first start holds the server back (see HeadStart): a tree slower to list than this (a
 * cold disk) is served while it is listed, as before.
 */
export const HEAD_START_MAX_MS = 1500;

/**
 * A first start's head start: on an empty journal the server begins serving once the first scan has
 * listed the tree and knows its newest files (a big tree's listing runs on worker threads), not
 * before. Next.js waits for instrumentation's register() before it serves. Serving at once, at a
 * million files on a 2-core machine, the scan's own steps waited behind Next.js's start on the
 * main thread (it found its sources 0.42 s late) and its workers for each folder's watch: the
 * newest page was correct 2.53 s after the spawn, 1.76 s after the first answer, every answer
 * before it a page still filling. Listed first (and with preloadEntriesOnStart off, next.config.ts)
 * it was correct 0.00-0.38 s after the first answer, 1.89-2.54 s after the spawn (two runs); from
 * a cold disk 0.11-0.69 s after it, 2.82-3.32 s after the spawn against 2.71: the cold listing is
 * the floor there, and a listing longer than the cap is served while it ends. A small tree is
 * listed in tens of milliseconds; a start with anything journaled does not wait at all.
 */
export class HeadStart {
  private end!: () => void;
  private readonly ended = new Promise<void>((resolve) => (this.end = resolve));

  /** The first listing is done (or the first scan ended). Later calls do nothing. */
  done(): void {
    this.end();
  }

  /** Resolves when done() is called, or after `maxMs` at most. */
  wait(maxMs = HEAD_START_MAX_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    return Promise.race([this.ended, late]).finally(() => clearTimeout(timer));
  }
}

/**
 * Whether a start waits for its first listing: only over a journal that knows no source yet. One
 * that cannot be read now does not wait (its first scan reports the fault, and recovers).
 */
export function waitsForListing(db: Db): boolean {
  try {
    return querySources(db).length === 0;
  } catch {
    return false;
  }
}
