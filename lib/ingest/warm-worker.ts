import "server-only";
// A thread that reads a first scan's files just ahead of the load (warm-files.ts), so the disk
// serves reads while the load's workers parse. Each file is opened the one safe way (safe-open.ts:
// no link followed, no FIFO waited on, nothing outside the root) and its bytes are thrown away:
// the load reads them again, from the page cache.
import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import { openInsideRootSync } from "@/lib/protocols/safe-open";
import { MAX_FILE_BYTES } from "@/lib/protocols/types";
import { diskReadBytes } from "./disk-reads";

export interface WarmJob {
  id: number;
  root: string;
  relPaths: string[];
}

export interface WarmResult {
  id: number;
  /** Files read (a file refused or gone is not). */
  read: number;
  /**
   * Files left unread: the job's first files were all in the page cache, so the rest is taken to
   * be (or this thread cannot tell, and reads nothing rather than read a warm tree twice).
   */
  skipped: number;
}

/**
 * Files read before a job is judged: when none of them needed the disk, the rest of the job is
 * not read (a warm tree costs each thread this many reads a chunk, not all of them).
 */
export const SAMPLE_FILES = 16;

const scratch = Buffer.allocUnsafe(256 * 1024);

/** Read one file as the load will (at most MAX_FILE_BYTES of it); false when it was refused or gone. */
function warm(root: string, relPath: string): boolean {
  let fd: number;
  try {
    ({ fd } = openInsideRootSync(root, relPath));
  } catch {
    return false; // refused or gone: the load says why, if it still matters then
  }
  try {
    for (let at = 0; at < MAX_FILE_BYTES; ) {
      const n = fs.readSync(fd, scratch, 0, scratch.length, at);
      at += n;
      if (n < scratch.length) break;
    }
  } catch {
    // unreadable: the load reports it
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** Read a job's files, unless its first SAMPLE_FILES all came from the page cache. */
export function warmJob({ id, root, relPaths }: WarmJob): WarmResult {
  const before = diskReadBytes();
  if (before === null) return { id, read: 0, skipped: relPaths.length };
  let read = 0;
  for (const [i, relPath] of relPaths.entries()) {
    if (i === SAMPLE_FILES && diskReadBytes() === before) return { id, read, skipped: relPaths.length - i };
    if (warm(root, relPath)) read++;
  }
  return { id, read, skipped: 0 };
}

parentPort?.on("message", (job: WarmJob) => parentPort?.postMessage(warmJob(job)));
