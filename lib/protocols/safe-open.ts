import "server-only";
// The one way Mailroom opens a workspace file to read it (DESIGN "Safety rules"). A path checked
// and then read again by name can be swapped in between (a symlink to /etc/passwd, a FIFO whose
// open blocks for good), so the file is opened once, without blocking and without following a
// link, and what was opened is checked through its descriptor: a regular file, with one link, on
// the root's device, that the kernel says sits inside the root. Only that descriptor is read.
import fsSync, { constants as fsConstants, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

export type Refusal = "missing" | "bad_path" | "symlink" | "not_a_file" | "hard_linked" | "other_device" | "outside_root" | "unreadable";

/**
 * Marks a RefusedFile in the global symbol registry, which every copy of this module shares: the
 * production build bundles instrumentation.ts (which starts ingest, whose sources read the logs)
 * apart from the routes, so a refusal thrown by ingest's copy failed the routes' `instanceof`, and a
 * log that is a link answered 500, not 409.
 */
const REFUSED = Symbol.for("mailroom.RefusedFile");

/** A file that was not opened, and why, in words a user can act on. */
export class RefusedFile extends Error {
  readonly [REFUSED] = true;

  /** `instanceof` by the mark, so a refusal from another copy of this module is one too (a class with no subclasses: they would pass as well). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [REFUSED]?: unknown })[REFUSED] === true;
  }

  constructor(
    readonly reason: Refusal,
    readonly relPath: string,
    message: string,
    /** The errno code behind an "unreadable" or "missing" refusal. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "RefusedFile";
  }
}

/** The path's parts, or null when it could leave the root (`..`, absolute, empty part, NUL). */
function partsOf(relPath: string): string[] | null {
  if (relPath === "" || path.isAbsolute(relPath) || relPath.includes("\0")) return null;
  const parts = relPath.split(/[\\/]/);
  return parts.some((p) => p === "" || p === "." || p === "..") ? null : parts;
}

interface RootFacts {
  real: string;
  dev: number;
}

// Per root: realpath and stat of a root cost a syscall per folder on its way, for every file of a scan.
const rootCache = new Map<string, RootFacts>();

function rootFacts(root: string, fresh: boolean): RootFacts {
  const cached = fresh ? undefined : rootCache.get(root);
  if (cached) return cached;
  const facts = { real: fsSync.realpathSync(root), dev: fsSync.statSync(root).dev };
  rootCache.set(root, facts);
  return facts;
}

function isInside(realRoot: string, p: string): boolean {
  const rel = path.relative(realRoot, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function refusedOpen(err: unknown, relPath: string): RefusedFile {
  const code = (err as NodeJS.ErrnoException).code ?? "EIO";
  if (code === "ENOENT" || code === "ENOTDIR") return new RefusedFile("missing", relPath, `${relPath} is not there`, code);
  // O_NOFOLLOW on a symlink fails with ELOOP; a socket cannot be opened (ENXIO).
  if (code === "ELOOP") return new RefusedFile("symlink", relPath, `${relPath} is a symbolic link; Mailroom never reads through links`);
  if (code === "ENXIO") return new RefusedFile("not_a_file", relPath, `${relPath} is not a regular file`);
  return new RefusedFile("unreadable", relPath, `${relPath} could not be read (${code})`, code);
}

/** What an opened file must be; the RefusedFile when it is not. `where` is the kernel's path of the file, if known. */
function check(root: string, relPath: string, st: Stats, where: string | null, lstatNow: () => Stats | null): RefusedFile | null {
  if (!st.isFile()) return new RefusedFile("not_a_file", relPath, `${relPath} is not a regular file (a device, socket or pipe); Mailroom does not read it`);
  // A hard link shares its bytes with another name, possibly outside the root. No name at all (0) is
  // the file as it was opened, replaced since (a writer's temp file renamed over it): whole, and read.
  if (st.nlink > 1) return new RefusedFile("hard_linked", relPath, `${relPath} has ${st.nlink} hard links; Mailroom reads only files with one`);
  const inRoot = (fresh: boolean) => {
    const facts = rootFacts(root, fresh);
    if (st.dev !== facts.dev) return "device";
    if (where !== null) return isInside(facts.real, where) ? "ok" : "outside";
    // No kernel path (not Linux): the path must still lead, without links, to this very file.
    const now = lstatNow();
    return now && now.ino === st.ino && now.dev === st.dev ? "ok" : "outside";
  };
  // A root that is itself a link may have been pointed elsewhere since it was cached.
  let verdict = inRoot(false);
  if (verdict !== "ok") verdict = inRoot(true);
  if (verdict === "device") return new RefusedFile("other_device", relPath, `${relPath} is on another filesystem than the workspace; Mailroom does not read it`);
  if (verdict === "outside") {
    if (where?.endsWith(" (deleted)")) return new RefusedFile("missing", relPath, `${relPath} was deleted while it was opened`);
    return new RefusedFile("outside_root", relPath, `${relPath} does not lead to a file inside the workspace`);
  }
  return null;
}

/**
 * Where the kernel says an open descriptor's file is (Linux's /proc), or null where it cannot say.
 * A deleted file reads as "<path> (deleted)".
 */
export function openedPathSync(fd: number): string | null {
  if (process.platform !== "linux") return null;
  try {
    return fsSync.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

async function openedPath(fd: number): Promise<string | null> {
  return process.platform === "linux" ? fs.readlink(`/proc/self/fd/${fd}`).catch(() => null) : null;
}

function lstatNoFollow(root: string, parts: string[]): Stats | null {
  // Every folder on the way must be a real one: a link among them could lead anywhere.
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = path.join(current, part);
    const st = fsSync.lstatSync(current, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return null;
  }
  return fsSync.lstatSync(path.join(root, ...parts), { throwIfNoEntry: false }) ?? null;
}

/**
 * Open a root-relative file for reading: the descriptor and its fstat, or a RefusedFile thrown.
 * Synchronous, for ingest's scans (see lib/ingest/read.ts). The caller closes the descriptor.
 */
export function openInsideRootSync(root: string, relPath: string): { fd: number; stats: Stats } {
  const parts = partsOf(relPath);
  if (!parts) throw new RefusedFile("bad_path", relPath, `refused path "${relPath}": it must stay inside the workspace`);
  let fd: number;
  try {
    fd = fsSync.openSync(path.join(root, ...parts), OPEN_FLAGS);
  } catch (err) {
    throw refusedOpen(err, relPath);
  }
  try {
    const stats = fsSync.fstatSync(fd);
    const refused = check(root, relPath, stats, openedPathSync(fd), () => lstatNoFollow(root, parts));
    if (refused) throw refused;
    return { fd, stats };
  } catch (err) {
    fsSync.closeSync(fd);
    throw err instanceof RefusedFile ? err : refusedOpen(err, relPath);
  }
}

/** openInsideRootSync for request handlers: never holds the event loop. */
export async function openInsideRoot(root: string, relPath: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const parts = partsOf(relPath);
  if (!parts) throw new RefusedFile("bad_path", relPath, `refused path "${relPath}": it must stay inside the workspace`);
  let handle: FileHandle;
  try {
    handle = await fs.open(path.join(root, ...parts), OPEN_FLAGS);
  } catch (err) {
    throw refusedOpen(err, relPath);
  }
  try {
    const stats = await handle.stat();
    const refused = check(root, relPath, stats, await openedPath(handle.fd), () => lstatNoFollow(root, parts));
    if (refused) throw refused;
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err instanceof RefusedFile ? err : refusedOpen(err, relPath);
  }
}

/**
 * The whole file, read from one safe open, as long as fstat said it was. Over `maxBytes` nothing
 * is read and `tooLarge` is set: the caller says what that means.
 */
export async function readInsideRoot(root: string, relPath: string, maxBytes = Infinity): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  const { handle, stats } = await openInsideRoot(root, relPath);
  try {
    if (stats.size > maxBytes) return { bytes: Buffer.alloc(0), tooLarge: true };
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < stats.size) {
      const { bytesRead } = await handle.read(bytes, read, stats.size - read, read);
      if (bytesRead === 0) break; // shrunk since the fstat
      read += bytesRead;
    }
    return { bytes: bytes.subarray(0, read), tooLarge: false };
  } finally {
    await handle.close();
  }
}

/** Chunks of a streamed file: big enough that a large file costs few reads, small enough to hold many at once. */
const STREAM_CHUNK = 64 * 1024;

/**
 * The file as a stream of its fstat size (for a Content-Length), read from the one safe open
 * and closed when the stream ends or is cancelled: a file is never loaded whole to be sent.
 */
export async function streamInsideRoot(root: string, relPath: string): Promise<{ size: number; stream: ReadableStream<Uint8Array> }> {
  const { handle, stats } = await openInsideRoot(root, relPath);
  let position = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const want = Math.min(STREAM_CHUNK, stats.size - position);
        const { bytesRead, buffer } = want > 0 ? await handle.read(Buffer.alloc(want), 0, want, position) : { bytesRead: 0, buffer: Buffer.alloc(0) };
        if (bytesRead > 0) controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
        position += bytesRead;
        // Ends at the size announced; a file that shrank ends early (the client sees a short body).
        if (bytesRead === 0 || position >= stats.size) {
          await close();
          controller.close();
        }
      } catch (err) {
        await close();
        controller.error(err);
      }
    },
    cancel: close,
  });
  return { size: stats.size, stream };
}
