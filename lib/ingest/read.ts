import "server-only";
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { MAX_FILE_BYTES, type FoundFile } from "@/lib/protocols";

/** Enough of an oversized file to read its headers. */
const HEAD_BYTES = 64 * 1024;

export function absolute(root: string, relPath: string): string {
  return path.join(root, ...relPath.split("/"));
}

/** lstat a root-relative path as a FoundFile, or null when nothing is there. */
export async function statFound(root: string, relPath: string): Promise<FoundFile | null> {
  const st = await fs.lstat(absolute(root, relPath)).catch(() => null);
  if (!st) return null;
  const kind = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "directory" : st.isFile() ? "file" : "other";
  return { relPath, kind, size: st.size, mtimeMs: Math.floor(st.mtimeMs), ino: st.ino };
}

/**
 * The bytes to hand the adapter. Symlinks and directories are never read (a link could lead
 * out of the root); an oversized file gives only its head, so it is journaled by headers.
 */
export async function readFound(root: string, found: FoundFile): Promise<{ bytes: Buffer | null; keep: boolean }> {
  if (found.kind !== "file") return { bytes: null, keep: false };
  // O_NOFOLLOW: a file swapped for a symlink after the lstat is refused, not followed.
  const flags = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW;
  const file = await fs.open(absolute(root, found.relPath), flags).catch(() => null);
  if (!file) return { bytes: null, keep: false };
  try {
    if (found.size > MAX_FILE_BYTES) {
      const head = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
      return { bytes: head.subarray(0, bytesRead), keep: false };
    }
    return { bytes: await file.readFile(), keep: true };
  } finally {
    await file.close();
  }
}
