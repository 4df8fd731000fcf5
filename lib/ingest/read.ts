import "server-only";
import fsSync, { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { MAX_FILE_BYTES, type FoundFile } from "@/lib/protocols";

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

/** lstat a root-relative path as a FoundFile, or null when nothing is there. */
export async function statFound(root: string, relPath: string): Promise<FoundFile | null> {
  const st = await fs.lstat(absolute(root, relPath)).catch(() => null);
  return st ? toFound(relPath, st) : null;
}

/**
 * The bytes to hand the adapter, and the file's facts as of this read (fstat of the open file, so
 * a file listed without stats gets them here); null when the file is no longer there. Symlinks
 * and directories are never read (a link could lead out of the root); an oversized file gives
 * only its head, so it is journaled by headers.
 * Synchronous on purpose: a scan reads thousands of small files, and event-loop round trips
 * would cost more than the reads.
 */
export function readFoundSync(root: string, found: FoundFile): { found: FoundFile; bytes: Buffer | null; keep: boolean } | null {
  const unread = { found, bytes: null, keep: false };
  if (found.kind !== "file") return unread;
  let fd: number;
  try {
    fd = fsSync.openSync(absolute(root, found.relPath), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  } catch (err) {
    // Gone since it was listed (moved or deleted): nothing to journal; the move's new path will be.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    return unread;
  }
  try {
    const now = toFound(found.relPath, fsSync.fstatSync(fd));
    if (now.kind !== "file") return { ...unread, found: now };
    const length = now.size > MAX_FILE_BYTES ? HEAD_BYTES : now.size;
    const buffer = Buffer.allocUnsafe(length);
    const bytesRead = length > 0 ? fsSync.readSync(fd, buffer, 0, length, 0) : 0;
    return { found: now, bytes: buffer.subarray(0, bytesRead), keep: now.size <= MAX_FILE_BYTES };
  } catch {
    return unread;
  } finally {
    fsSync.closeSync(fd);
  }
}
