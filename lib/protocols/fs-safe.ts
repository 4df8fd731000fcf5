import "server-only";
// Listing a workspace tree without ever following a symbolic link (docs/DESIGN.md "Safety rules": a
// symlink inside a queue is listed as a problem, never read). Shared by the adapters.
import { lstatSync, readdirSync, type Dirent, type Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { FoundFile } from "@/lib/protocols/types";

/** lstat calls in flight per directory: enough to hide latency, few enough for big queues. */
const BATCH = 256;

export function kindOf(stats: Stats): FoundFile["kind"] {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  return "other";
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch {
    return null;
  }
}

function lstatSyncOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** True when `p` is a directory itself, not a symlink to one. */
export async function isRealDirectory(p: string): Promise<boolean> {
  const stats = await lstatOrNull(p);
  return stats !== null && stats.isDirectory();
}

/** True when every folder from `root` (exclusive) down to `dir` (inclusive) is a real directory. */
export async function isReachableWithoutLinks(root: string, dir: string): Promise<boolean> {
  const rel = path.relative(root, dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return false;
  let current = root;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    if (!(await isRealDirectory(current))) return false;
  }
  return true;
}

/** Names of the real (non-link) subdirectories of `dir`; [] when it is missing or unreadable. */
export async function listRealSubdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  // Dirent types come from the directory itself (no link is followed).
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

/** `abs` relative to `root`, with "/" separators. */
export function toRelPath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

export interface ListOptions {
  /** Levels below `dir` to look at (entries directly in `dir` are level 1). */
  maxDepth: number;
  /** Whether an entry's root-relative path is wanted; wanted entries are listed whatever their kind. */
  accept: (relPath: string) => boolean;
  /**
   * false: regular files are listed from the directory entry alone, size/mtime/inode left at -1
   * for the reader's fstat to fill (a first scan reads every file anyway; an lstat each would
   * cost as much again). Other kinds are still lstat'ed.
   */
  stat?: boolean;
  /** Called as the listing goes with how many wanted entries were just added, so a caller can get ready for a big tree. */
  onListed?: (files: number) => void;
  /**
   * Hears each directory just before the listing reads it (absolute): the folders to watch, without
   * reading them all again; watched from here, a file made after the read still sends an event.
   */
  onDir?: (absDir: string) => void;
  /**
   * Read and lstat synchronously: for a worker thread, where blocking holds up no request and the
   * thread pool's round trips cost more than the calls (99,019 files with stats: 0.6 s, not 1.3 s).
   */
  sync?: boolean;
}

/** A regular file listed without its stat; read it to learn the rest (see ListOptions.stat). */
export const UNSTATTED = -1;

/**
 * Every wanted entry under `dir`, found with lstat only. Descends into real directories that are
 * not themselves wanted; never into symlinks. Missing or unreadable folders and entries are skipped.
 */
export async function listNoFollow(root: string, dir: string, opts: ListOptions): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  if (!(await isReachableWithoutLinks(root, dir))) return out;

  async function walk(current: string, depth: number): Promise<void> {
    let entries: Dirent[];
    opts.onDir?.(current);
    try {
      entries = opts.sync ? readdirSync(current, { withFileTypes: true }) : await readdir(current, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: nothing to list
    }
    // The folder's relative path once, not a join and a relative() per entry: a queue folder
    // holds tens of thousands of files, and those two calls were most of a listing's time.
    const relDir = toRelPath(root, current);
    const relPathOf = (name: string) => (relDir === "" ? name : `${relDir}/${name}`);
    const added = (since: number) => {
      if (out.length > since) opts.onListed?.(out.length - since);
    };
    if (opts.stat === false) {
      const before = out.length;
      entries = entries.filter((e) => {
        if (!e.isFile()) return true;
        const relPath = relPathOf(e.name);
        if (opts.accept(relPath)) out.push({ relPath, kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED });
        return false;
      });
      added(before);
    }
    for (let i = 0; i < entries.length; i += BATCH) {
      const batch = entries.slice(i, i + BATCH).map(async ({ name }) => {
        const abs = path.join(current, name);
        const stats = opts.sync ? lstatSyncOrNull(abs) : await lstatOrNull(abs);
        return stats && { abs, name, stats };
      });
      const subdirs: string[] = [];
      const before = out.length;
      for (const entry of await Promise.all(batch)) {
        if (!entry) continue;
        const relPath = relPathOf(entry.name);
        const { stats } = entry;
        if (opts.accept(relPath)) {
          // Whole milliseconds, as ingest's own lstat records them, so the two compare equal.
          out.push({ relPath, kind: kindOf(stats), size: stats.size, mtimeMs: Math.floor(stats.mtimeMs), ino: stats.ino });
        } else if (stats.isDirectory() && depth < opts.maxDepth) {
          subdirs.push(entry.abs);
        }
      }
      added(before);
      for (const sub of subdirs) await walk(sub, depth + 1);
    }
  }

  await walk(dir, 1);
  return out;
}
