import "server-only";
// Listing a workspace tree without ever following a symbolic link (docs/DESIGN.md "Safety rules": a
// symlink inside a queue is listed as a problem, never read). Shared by the adapters.
import { lstatSync, opendirSync, type Dirent, type Stats } from "node:fs";
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

/** Errors that mean nothing is there (now): not an unreadable folder. */
export function isAbsent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function errnoOf(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? "EIO";
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch {
    return null;
  }
}

/** lstat: the stats, null when nothing is there, or the error code when it could not be asked (EACCES, EIO). */
async function lstatOrError(p: string, sync: boolean): Promise<Stats | null | string> {
  try {
    return sync ? lstatSync(p) : await lstat(p);
  } catch (err) {
    return isAbsent(err) ? null : errnoOf(err);
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

/**
 * Names of the real (non-link) subdirectories of `dir`; [] when it is missing. A folder that is
 * there but cannot be read (EACCES, EIO) throws: that is not "no subdirectories".
 */
export async function listRealSubdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    if (isAbsent(err)) return [];
    throw err;
  });
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
   * Hears each folder that is there but could not be read (absolute, with the errno code, e.g.
   * EACCES or EIO): its entries are not listed, which must not be taken for their deletion.
   */
  onUnreadable?: (absDir: string, code: string) => void;
  /**
   * Read and lstat synchronously: for a worker thread, where blocking holds up no request and the
   * thread pool's round trips cost more than the calls (99,019 files with stats: 0.6 s, not 1.3 s).
   */
  sync?: boolean;
  /**
   * List only share `part` of `of` (0-based), so that several threads can list one tree at once:
   * each entry directly in `dir` (and all below it) belongs to one share, by a hash of its name
   * alone, so a file or folder made, removed or replaced meanwhile is never in two shares nor in
   * none. Only `dir` itself is read by every share.
   */
  share?: { part: number; of: number };
  /**
   * With `stat: false`: the wanted regular files of each folder (root-relative, "" for the root),
   * handed over by name rather than listed as an object each with its path (at a million files
   * those were two thirds of a worker's listing CPU). The listing then holds only the other entries.
   */
  plainFiles?: (relDir: string, names: string[]) => void;
  /**
   * `accept` for the names directly in one folder (root-relative), asked once a folder, where the
   * protocol can tell by a name alone: no path is then made for each entry. Without it, `accept`.
   */
  acceptIn?: (relDir: string) => (name: string) => boolean;
}

/** Which share (see ListOptions.share) an entry directly in the listed folder belongs to: FNV-1a of its name. */
export function shareOf(name: string, of: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % of;
}

/** A regular file listed without its stat; read it to learn the rest (see ListOptions.stat). */
export const UNSTATTED = -1;

/**
 * A folder's entries, read synchronously in the order the file system gives them: readdirSync sorts
 * them by name first (libuv's scandir), which was 0.4 s of a million names' 1.05 s of CPU.
 */
function readEntriesSync(dir: string): Dirent[] {
  const handle = opendirSync(dir);
  try {
    const entries: Dirent[] = [];
    for (let e = handle.readSync(); e !== null; e = handle.readSync()) entries.push(e);
    return entries;
  } finally {
    handle.closeSync();
  }
}

/**
 * Whether `dir` is reached from `root` through real folders only; a folder on the way that cannot
 * be asked (EACCES, EIO) is told to `onUnreadable`, and `dir` is then not listed.
 */
async function reachable(root: string, dir: string, opts: ListOptions): Promise<boolean> {
  const rel = path.relative(root, dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return false;
  let current = root;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const stats = await lstatOrError(current, opts.sync === true);
    if (typeof stats === "string") opts.onUnreadable?.(current, stats);
    if (stats === null || typeof stats === "string" || !stats.isDirectory()) return false;
  }
  return true;
}

/**
 * Every wanted entry under `dir`, found with lstat only. Descends into real directories that are
 * not themselves wanted; never into symlinks. Missing folders and entries are skipped; a folder
 * that cannot be read, or one of whose entries cannot be lstat'ed, is told to `onUnreadable`.
 */
export async function listNoFollow(root: string, dir: string, opts: ListOptions): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  if (!(await reachable(root, dir, opts))) return out;

  async function walk(current: string, depth: number): Promise<void> {
    let entries: Dirent[];
    opts.onDir?.(current);
    try {
      entries = opts.sync ? readEntriesSync(current) : await readdir(current, { withFileTypes: true });
    } catch (err) {
      // Gone: nothing to list. There but unreadable: said, so its files are not taken for deleted.
      if (!isAbsent(err)) opts.onUnreadable?.(current, errnoOf(err));
      return;
    }
    const { share } = opts;
    if (share && depth === 1) entries = entries.filter((e) => shareOf(e.name, share.of) === share.part);
    // The folder's relative path once, not a join and a relative() per entry: a queue folder
    // holds tens of thousands of files, and those two calls were most of a listing's time.
    const relDir = toRelPath(root, current);
    const relPathOf = (name: string) => (relDir === "" ? name : `${relDir}/${name}`);
    const added = (since: number) => {
      if (out.length > since) opts.onListed?.(out.length - since);
    };
    if (opts.stat === false) {
      const before = out.length;
      const wanted = opts.acceptIn?.(relDir) ?? ((name: string) => opts.accept(relPathOf(name)));
      const { plainFiles } = opts;
      const plain: string[] = [];
      entries = entries.filter((e) => {
        if (!e.isFile()) return true;
        if (!wanted(e.name)) return false;
        if (plainFiles) plain.push(e.name);
        else out.push({ relPath: relPathOf(e.name), kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED });
        return false;
      });
      if (plainFiles && plain.length > 0) {
        plainFiles(relDir, plain);
        opts.onListed?.(plain.length);
      }
      added(before);
    }
    for (let i = 0; i < entries.length; i += BATCH) {
      const batch = entries.slice(i, i + BATCH).map(async ({ name }) => {
        const abs = path.join(current, name);
        const stats = await lstatOrError(abs, opts.sync === true);
        return stats && { abs, name, stats };
      });
      const subdirs: string[] = [];
      const before = out.length;
      let unreadable: string | null = null;
      for (const entry of await Promise.all(batch)) {
        if (!entry) continue;
        if (typeof entry.stats === "string") {
          unreadable = entry.stats;
          continue;
        }
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
      // A folder readable but not searchable (r without x) lists names it cannot lstat.
      if (unreadable !== null) opts.onUnreadable?.(current, unreadable);
      for (const sub of subdirs) await walk(sub, depth + 1);
    }
  }

  await walk(dir, 1);
  return out;
}
