// Tests of reading ahead: files dropped from the page cache, as a machine's first read after its
// boot finds them, and whether reading them then needed the disk.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { diskReadBytes } from "@/lib/ingest/disk-reads";

/** Drop these files' pages from the page cache (written to disk first). */
export function evict(files: string[]): void {
  for (const f of files) {
    const fd = fs.openSync(f, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  }
  // POSIX_FADV_DONTNEED on each (Node has no fadvise); coreutils' dd asks it with iflag=nocache.
  spawnSync("sh", ["-c", 'for f in "$@"; do dd if="$f" iflag=nocache count=0 status=none; done', "sh", ...files]);
}

/** Bytes this thread had read from the disk to read `files` (Node reads them on this thread). */
export function diskBytesToRead(files: string[]): number {
  const before = diskReadBytes() ?? 0;
  for (const f of files) fs.readFileSync(f);
  return (diskReadBytes() ?? 0) - before;
}

/** Whether this machine can empty files' pages from the cache (not on tmpfs, not without dd or /proc): tried on `files`. */
export function canEvict(files: string[]): boolean {
  evict(files);
  return diskReadBytes() !== null && diskBytesToRead(files) > 0;
}
