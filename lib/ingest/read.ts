import "server-only";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { MAX_FILE_BYTES, type FoundFile } from "@/lib/protocols";
import { isAbsent } from "@/lib/protocols/fs-safe";
import { openInsideRootSync, RefusedFile } from "@/lib/protocols/safe-open";

/** Enough of an oversized file to read its headers. */
const HEAD_BYTES = 64 * 1024;

export function absolute(root: string, relPath: string): string {
  return path.join(root, ...relPath.split("/"));
}

function toFound(relPath: string, st: fsSync.Stats): FoundFile {
  const kind = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "directory" : st.isFile() ? "file" : "other";
  return { relPath, kind, size: st.size, mtimeMs: Math.floor(st.mtimeMs), ino: st.ino };
}

export function statFoundSync(root: string, relPath: string): FoundFile | null {
  try {
    return toFound(relPath, fsSync.lstatSync(absolute(root, relPath)));
  } catch {
    return null;
  }
}

/**
 * Whether something may be at a root-relative path: false only when nothing is (ENOENT). One that
 * cannot be asked (its folder unreadable: EACCES, EIO) may be there, so it is never taken for gone.
 */
export function mayBeThereSync(root: string, relPath: string): boolean {
  try {
    fsSync.lstatSync(absolute(root, relPath));
    return true;
  } catch (err) {
    return !isAbsent(err);
  }
}

/** lstat a root-relative path as a FoundFile, or null when nothing is there; throws when it cannot be asked (EACCES, EIO). */
export async function statFound(root: string, relPath: string): Promise<FoundFile | null> {
  const st = await fs.lstat(absolute(root, relPath)).catch((err: unknown) => {
    if (isAbsent(err)) return null;
    throw err;
  });
  return st ? toFound(relPath, st) : null;
}

/**
 * A file that could not be read (EACCES, EIO) is journaled as such, with its real size: never the
 * listing's UNSTATTED -1, which is no size at all. Its mtime is left at 0, so the next scan reads
 * it again (it never compares equal to the file's own), and takes it up once it is readable.
 */
function unreadableFile(root: string, relPath: string): FoundFile {
  const st = statFoundSync(root, relPath);
  return { relPath, kind: "file", size: Math.max(0, st?.size ?? 0), mtimeMs: 0, ino: Math.max(0, st?.ino ?? 0) };
}

/**
 * The bytes to hand the adapter, and the file's facts as of this read (fstat of the open file, so
 * a file listed without stats gets them here); null when there is nothing to journal now: the
 * file is gone since it was listed (the move's new path will be journaled), or it is one Mailroom
 * never reads but may be in a moment (a hard link, made for an instant by an atomic write or a
 * move, or to a file outside the tree; a file on another device), tried again at the next scan.
 * Opened only through openInsideRootSync: symlinks, pipes and devices are never read (a FIFO's
 * open would block for good); an oversized file gives only its head, so it is journaled by headers.
 * Synchronous on purpose: a scan reads thousands of small files, and event-loop round trips
 * would cost more than the reads.
 */
export function readFoundSync(root: string, found: FoundFile): { found: FoundFile; bytes: Buffer | null; keep: boolean } | null {
  const unread = (facts: FoundFile) => ({ found: facts, bytes: null, keep: false });
  if (found.kind !== "file") return unread(found);
  let opened: { fd: number; stats: fsSync.Stats };
  try {
    opened = openInsideRootSync(root, found.relPath);
  } catch (err) {
    if (!(err instanceof RefusedFile)) throw err;
    switch (err.reason) {
      case "missing":
        return null;
      case "symlink":
      case "not_a_file": {
        // Swapped since it was listed: journaled as what it is now, a problem, never read.
        const now = statFoundSync(root, found.relPath);
        return now ? unread(now) : null;
      }
      case "hard_linked":
      case "other_device":
      case "outside_root":
      case "bad_path":
        return null;
      case "unreadable":
        return unread(unreadableFile(root, found.relPath));
    }
  }
  const { fd, stats } = opened;
  try {
    const now = toFound(found.relPath, stats);
    const length = now.size > MAX_FILE_BYTES ? HEAD_BYTES : now.size;
    const buffer = Buffer.allocUnsafe(length);
    const bytesRead = length > 0 ? fsSync.readSync(fd, buffer, 0, length, 0) : 0;
    return { found: now, bytes: buffer.subarray(0, bytesRead), keep: now.size <= MAX_FILE_BYTES };
  } catch {
    return unread(unreadableFile(root, found.relPath));
  } finally {
    fsSync.closeSync(fd);
  }
}
